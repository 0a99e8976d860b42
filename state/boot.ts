import { initialRun, type ProgramRecord } from './program.js';

/**
 * What the current daemon run knows about its own boot, so that boot-time rules are a planner
 * input instead of a rewrite of stored intent:
 * - `epoch` counts daemon starts (stored in the program store); every intent write is stamped
 *   with the epoch it was made in;
 * - `adopted` holds the programs whose process survived the previous daemon and was re-adopted
 *   (filled in once, by the process controller's start-up, before any loop runs);
 * - `crashed`: the previous daemon of this machine boot ended without a graceful shutdown.
 */
export interface BootContext {
  readonly epoch: number;
  readonly adopted: Set<string>;
  /** The previous svcd of this machine boot crashed (state/live-marker.ts): this start is not a boot. */
  readonly crashed: boolean;
}

/**
 * The run intent in force for a program (docs/states.md, "Boot"). An intent written during this
 * daemon run wins. After a crash of svcd every stored intent holds: a crash is not a boot. Otherwise
 * an older one is a boot: a program whose process survived keeps the intent it had, and for the
 * rest `autostart` decides ("controls boot-time start only"). A cron program's stored intent always holds: its schedule is
 * active unless the user paused it, and a pause survives a restart (docs/cron.md).
 */
export function runIntent(record: ProgramRecord, boot: BootContext): 'running' | 'stopped' {
  const { intent, config } = record;
  if (intent.epoch === boot.epoch || config.cron !== undefined || boot.crashed || boot.adopted.has(record.id)) return intent.run;
  return initialRun(config);
}

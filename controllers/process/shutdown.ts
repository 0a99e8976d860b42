import type { ObservedRegistry } from '../../state/observed.js';
import { withDefaults, type ProgramRecord } from '../../state/program.js';
import { ALIVE } from '../../state/status.js';
import type { ProcessController } from './controller.js';

/**
 * Stops every program for daemon shutdown, in descending priority: each level is gone (or
 * past its stopsecs, when SIGKILL follows) before the next level is asked to stop.
 */
export async function stopAllForShutdown(
  records: ProgramRecord[],
  controller: Pick<ProcessController, 'markShutdown'>, // process and cron controllers alike
  observed: ObservedRegistry,
): Promise<void> {
  const levels = new Map<number, ProgramRecord[]>();
  for (const r of records) {
    const p = withDefaults(r.config).priority;
    levels.set(p, [...(levels.get(p) ?? []), r]);
  }
  for (const priority of [...levels.keys()].sort((a, b) => b - a)) {
    const level = levels.get(priority) ?? [];
    controller.markShutdown(level.map((r) => r.id));
    await Promise.all(
      level.map((r) => observed.waitFor(r.id, (o) => !o || !ALIVE.has(o.status), withDefaults(r.config).stopsecs * 1000 + 5000)),
    );
  }
}

import type { Controller } from '../reconciler/controller.js';
import type { ObservedChange } from '../state/observed.js';
import type { SignalName } from '../state/signals.js';
import type { ProgramConfig, ProgramRecord } from '../state/program.js';

/**
 * A committed store write: every id it touched and, for those whose config changed (created,
 * edited or removed), the config before (null: created). The others changed only their intent.
 * Controllers that serve one feature (health checks, limits, artifacts, schedules) wake only for
 * programs that use it before or after the write: a stop of 500 programs, or 500 new programs
 * without that feature, are none of their business.
 */
export interface DesiredChange {
  ids: readonly string[];
  configs: ReadonlyMap<string, ProgramConfig | null>;
}

/**
 * A controller keyed by program id: woken by committed store writes and by observed-state
 * changes. Registered with the ControllerManager in bin/daemon.ts.
 */
export type ProgramController = Controller<string, DesiredChange, ObservedChange>;

/**
 * A controller that runs programs' processes (process, cron). User signals are routed to the
 * one that owns the program; the usage sampler and log rotation read the live pids.
 */
export interface ProcessRunner {
  /** Whether this runner has processes of the program or is meant to run it. */
  owns(id: string): boolean;
  /** Sends a user signal to the program's processes; false when none is running. */
  signal(id: string, signal: SignalName): boolean;
  /** The newest live pid of each program it runs. */
  livePids(): Map<string, number>;
}

/** Every id of a change, as keys (for controllers that read intents). */
export const changedIds = (change: DesiredChange): readonly string[] => change.ids;

/** What a controller that serves one feature watches in the store's changes (`featureKeys`). */
export interface FeatureWatch {
  /** The programs as they are now (the store). */
  store: { get(id: string): ProgramRecord | undefined };
  /** Whether a config uses the feature (a health check, limits, a schedule, an artifact). */
  uses: (config: ProgramConfig) => boolean;
  /** Whether the controller still keeps state for a program (to clean up after it). */
  known: (id: string) => boolean;
  /** Whether an intent-only change (start, stop) of such a program matters too. */
  intents: boolean;
}

/** The ids of a change whose config uses the feature before the write or now, or that the controller knows. */
export function featureKeys(change: DesiredChange, { store, uses, known, intents }: FeatureWatch): string[] {
  return change.ids.filter((id) => {
    const before = change.configs.get(id);
    if (before === undefined && !intents) return false;
    const config = store.get(id)?.config;
    return (before !== undefined && before !== null && uses(before)) || (config !== undefined && uses(config)) || known(id);
  });
}

/** Routes a user signal to the runner that owns the program (cron runs, or the process). */
export function signalOwner(runners: readonly ProcessRunner[]): { signal(id: string, signal: SignalName): boolean } {
  return { signal: (id, signal) => runners.find((r) => r.owns(id))?.signal(id, signal) ?? false };
}

/** The newest live pid of every program, from every runner. */
export function allLivePids(runners: readonly ProcessRunner[]): Map<string, number> {
  return new Map(runners.flatMap((r) => [...r.livePids()]));
}

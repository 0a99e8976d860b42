import type { Controller } from '../reconciler/controller.js';
import type { ObservedChange } from '../state/observed.js';
import type { SignalName } from '../state/signals.js';

/**
 * A committed store write: every id it touched, and those whose config changed (created, edited
 * or removed). The others changed only their intent: a stop of 500 programs need not wake the
 * controllers that read only configs.
 */
export interface DesiredChange {
  ids: readonly string[];
  configs: ReadonlySet<string>;
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

/** The ids whose config changed (for controllers that read only configs). */
export const configChangedIds = (change: DesiredChange): ReadonlySet<string> => change.configs;

/** Routes a user signal to the runner that owns the program (cron runs, or the process). */
export function signalOwner(runners: readonly ProcessRunner[]): { signal(id: string, signal: SignalName): boolean } {
  return { signal: (id, signal) => runners.find((r) => r.owns(id))?.signal(id, signal) ?? false };
}

/** The newest live pid of every program, from every runner. */
export function allLivePids(runners: readonly ProcessRunner[]): Map<string, number> {
  return new Map(runners.flatMap((r) => [...r.livePids()]));
}

import type { Controller } from '../reconciler/controller.js';
import type { ObservedChange } from '../state/observed.js';
import type { SignalName } from '../state/signals.js';

/**
 * A controller keyed by program id: woken by committed store writes (the ids they touched) and
 * by observed-state changes. Registered with the ControllerManager in bin/daemon.ts.
 */
export type ProgramController = Controller<string, readonly string[], ObservedChange>;

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

/** The store ids of a change, as keys (most controllers reconcile exactly those). */
export const changedIds = (ids: readonly string[]): readonly string[] => ids;

/** Routes a user signal to the runner that owns the program (cron runs, or the process). */
export function signalOwner(runners: readonly ProcessRunner[]): { signal(id: string, signal: SignalName): boolean } {
  return { signal: (id, signal) => runners.find((r) => r.owns(id))?.signal(id, signal) ?? false };
}

/** The newest live pid of every program, from every runner. */
export function allLivePids(runners: readonly ProcessRunner[]): Map<string, number> {
  return new Map(runners.flatMap((r) => [...r.livePids()]));
}

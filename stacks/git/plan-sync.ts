/** What started a sync: daemon start, the poll timer, or a person (API, CLI, webhook). */
export type SyncTrigger = 'start' | 'interval' | 'manual';

export interface SyncState {
  /** The commit applied last (durable), or null before the first good one. */
  applied: string | null;
  /** A commit refused earlier (bad stack, bad signature); not retried by the timer. */
  refused: string | null;
  allowDrift: boolean;
}

/**
 * `apply`: load, validate and apply the commit. `keep`: the commit is the applied one, nothing
 * to do. `refused`: the commit was refused before and is reported already; the last good
 * commit keeps running until a new one arrives or someone asks again.
 */
export type SyncDecision = 'apply' | 'keep' | 'refused';

/**
 * Decides a sync, pure. A new commit is applied. The applied commit is applied again at start
 * and when asked (it converges programs changed while svcd was down), except with allow_drift,
 * whose changes are kept until the next commit. A refused commit is retried only when asked.
 */
export function planSync(state: SyncState, target: string, trigger: SyncTrigger): SyncDecision {
  if (target === state.refused && trigger !== 'manual') return 'refused';
  if (target === state.applied) return trigger === 'interval' || state.allowDrift ? 'keep' : 'apply';
  return 'apply';
}

/** The delay to the next poll: the interval after a success, shorter (at most 30 s) after a failed fetch. */
export function nextPollMs(intervalSecs: number, fetchFailed: boolean): number {
  const interval = intervalSecs * 1000;
  return fetchFailed ? Math.min(interval, 30_000) : interval;
}

import type { EffectiveConfig } from '../../state/program.js';

/** Backoff factor between retries, and the jitter as a fraction of the delay (±). */
export const BACKOFF_FACTOR = 2;
export const BACKOFF_JITTER = 0.2;
/**
 * Retries due sooner than this after the exit are quick restarts (`backoff_secs = 0` or a few ms):
 * they are paced daemon-wide, not one by one (restartPacedAt).
 */
export const QUICK_RESTART_MS = 100;
/**
 * The shortest time between two quick restarts anywhere in the daemon: with `backoff_secs = 0` a
 * handful of crash-looping programs would otherwise spawn back to back and starve the daemon's
 * event loop (no API, no signals, no event writes). A pace shared by all programs bounds the
 * whole daemon to 1000 / RESTART_PACE_MS quick restarts a second however many programs loop, while
 * one crash-looping program restarts as fast as the bare process allows (a per-program floor of
 * 100 ms used to make every restart wait that long).
 */
export const RESTART_PACE_MS = 5;
/**
 * How far ahead of now the daemon-wide pace can reach: 5 ms a quick restart, for 2,000 of them
 * at once. A pace further ahead is from before the wall clock was stepped back, and starts again
 * from now (a crash loop does not stop for the step).
 */
export const PACE_HORIZON_MS = 10_000;
/** 2^30 already exceeds any backoff_max_secs the schema accepts; larger exponents only overflow. */
const MAX_EXPONENT = 30;

/**
 * Delay before retry number `retry` (1-based): backoff_secs · 2^(retry-1), capped at
 * backoff_max_secs (a cap below backoff_secs is backoff_secs: the first retry waits what
 * backoff_secs says, and the delay never shrinks as retries go on), then spread by ±20% with `random` in [0, 1) so that programs that crashed
 * together do not restart in lockstep. Finite for every retry count (no 2^1024 overflow into
 * Infinity · 0 = NaN). Quick ones are then paced daemon-wide (restartPacedAt).
 */
export function backoffDelayMs(config: Pick<EffectiveConfig, 'backoff_secs' | 'backoff_max_secs'>, retry: number, random: number): number {
  const exponent = Math.min(MAX_EXPONENT, Math.max(0, retry - 1));
  const base = config.backoff_secs * 1000 * BACKOFF_FACTOR ** exponent;
  const cap = Math.max(config.backoff_secs, config.backoff_max_secs) * 1000;
  const capped = Math.min(base, cap);
  const spread = 1 + BACKOFF_JITTER * (2 * random - 1);
  const delay = Math.round(capped * spread);
  return Number.isFinite(delay) ? Math.max(0, delay) : cap;
}

/**
 * When a retry due at `dueAt` (`delayMs` after the exit) may run: a quick one not sooner than
 * RESTART_PACE_MS after the last quick restart the daemon scheduled (`lastQuickAt`, -Infinity for
 * none); others when due. Pure: the caller keeps `lastQuickAt`.
 */
export function restartPacedAt(dueAt: number, delayMs: number, lastQuickAt: number): { at: number; quick: boolean } {
  if (delayMs >= QUICK_RESTART_MS) return { at: dueAt, quick: false };
  return { at: Math.max(dueAt, lastQuickAt + RESTART_PACE_MS), quick: true };
}

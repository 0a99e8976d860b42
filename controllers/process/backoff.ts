import type { EffectiveConfig } from '../../state/program.js';

/** Backoff factor between retries, and the jitter as a fraction of the delay (±). */
export const BACKOFF_FACTOR = 2;
export const BACKOFF_JITTER = 0.2;
/**
 * The shortest time between a crash and the next spawn, whatever the configuration: with
 * `backoff_secs = 0` a handful of crash-looping programs would otherwise spawn back to back and
 * starve the daemon's event loop (no API, no signals, no event writes).
 */
export const MIN_RESTART_DELAY_MS = 100;
/** 2^30 already exceeds any backoff_max_secs the schema accepts; larger exponents only overflow. */
const MAX_EXPONENT = 30;

/**
 * Delay before retry number `retry` (1-based): backoff_secs · 2^(retry-1), capped at
 * backoff_max_secs, then spread by ±20% with `random` in [0, 1) so that programs that crashed
 * together do not restart in lockstep, and never under MIN_RESTART_DELAY_MS. Finite for every
 * retry count (no 2^1024 overflow into Infinity · 0 = NaN).
 */
export function backoffDelayMs(config: Pick<EffectiveConfig, 'backoff_secs' | 'backoff_max_secs'>, retry: number, random: number): number {
  const exponent = Math.min(MAX_EXPONENT, Math.max(0, retry - 1));
  const base = config.backoff_secs * 1000 * BACKOFF_FACTOR ** exponent;
  const capped = Math.min(base, config.backoff_max_secs * 1000);
  const spread = 1 + BACKOFF_JITTER * (2 * random - 1);
  const delay = Math.round(capped * spread);
  return Number.isFinite(delay) ? Math.max(MIN_RESTART_DELAY_MS, delay) : config.backoff_max_secs * 1000;
}

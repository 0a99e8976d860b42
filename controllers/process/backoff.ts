import type { EffectiveConfig } from '../../state/program.js';

/** Backoff factor between retries, and the jitter as a fraction of the delay (±). */
export const BACKOFF_FACTOR = 2;
export const BACKOFF_JITTER = 0.2;

/**
 * Delay before retry number `retry` (1-based): backoff_secs · 2^(retry-1), capped at
 * backoff_max_secs, then spread by ±20% with `random` in [0, 1) so that programs that crashed
 * together do not restart in lockstep. backoff_secs = 0 restarts at once.
 */
export function backoffDelayMs(config: Pick<EffectiveConfig, 'backoff_secs' | 'backoff_max_secs'>, retry: number, random: number): number {
  const base = config.backoff_secs * 1000 * BACKOFF_FACTOR ** Math.max(0, retry - 1);
  const capped = Math.min(base, config.backoff_max_secs * 1000);
  const spread = 1 + BACKOFF_JITTER * (2 * random - 1);
  return Math.max(0, Math.round(capped * spread));
}

/**
 * Where the client waits (retry and poll delays). The real one is setTimeout; tests pass a fake
 * clock (reconciler/fake-clock.ts fits), so backoff is tested without sleeping.
 */
export interface Timer {
  /** Calls `fn` once after `ms`; returns the function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const realTimer: Timer = {
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};

/** Time as a parameter: controllers read and wait on this, never on Date.now or setTimeout. */
export interface Clock {
  /** Unix milliseconds. */
  now(): number;
  /** Calls `fn` once at or after `ms` from now; returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

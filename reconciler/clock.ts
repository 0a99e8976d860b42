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

/** Whether `work` settles within `ms` on `clock` (its result or failure aside); the timer is cancelled either way. */
export async function settlesWithin(clock: Pick<Clock, 'setTimer'>, ms: number, work: Promise<unknown>): Promise<boolean> {
  let cancel = () => undefined as void;
  const late = new Promise<false>((resolve) => (cancel = clock.setTimer(ms, () => resolve(false))));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    cancel();
  }
}

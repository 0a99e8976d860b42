/** Time as a parameter: controllers read and wait on this, never on Date.now or setTimeout. */
export interface Clock {
  /** Unix milliseconds. */
  now(): number;
  /**
   * Milliseconds from an arbitrary origin that only moves forward, at the pace of timers (the
   * wall clock can be stepped); absent: wall-clock steps are not told apart.
   */
  monotonic?(): number;
  /** Calls `fn` once at or after `ms` from now; returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** setTimeout's longest delay; Node fires a longer one after 1 ms (TimeoutOverflowWarning). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Wall and monotonic time drift apart a little (NTP slewing, rounding): readings this far apart
 * in the wrong order are a step of the wall clock, not drift.
 */
export const CLOCK_STEP_TOLERANCE_MS = 1000;

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer(ms, fn) {
    // Delays past 24.8 days (download_timeout and kill_after_secs allow a year) are waited in steps.
    let timer: NodeJS.Timeout;
    const arm = (left: number) => {
      timer = setTimeout(() => (left > MAX_TIMEOUT_MS ? arm(left - MAX_TIMEOUT_MS) : fn()), Math.min(MAX_TIMEOUT_MS, Math.max(0, left)));
      timer.unref?.();
    };
    arm(ms);
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

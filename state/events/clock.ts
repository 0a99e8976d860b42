/**
 * The time source the event log needs. Structurally the reconciler's `Clock` (which `state/`
 * may not import), so the daemon passes its clock and tests pass a `FakeClock`.
 */
export interface EventClock {
  /** Unix milliseconds. */
  now(): number;
  /** Calls `fn` once at or after `ms` from now; returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

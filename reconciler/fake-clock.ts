import type { Clock } from './clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when told; timers fire in time order during `advance`. */
export class FakeClock implements Clock {
  private timers: Timer[] = [];
  private seq = 0;

  constructor(private current = 1_700_000_000_000) {}

  /** Time moved by `advance` only: `stepBack` moves the wall clock, not this. */
  private elapsed = 0;

  now(): number {
    return this.current;
  }

  monotonic(): number {
    return this.elapsed;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing each due timer at its own time. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      const at = Math.max(this.current, next.at);
      this.elapsed += at - this.current;
      this.current = at;
      next.fn();
    }
    this.elapsed += target - this.current;
    this.current = target;
  }

  /**
   * The wall clock steps back by `ms` (a correction): timers still fire after the time they had
   * left, as Node's timers (monotonic) do, so their due times move back with it.
   */
  stepBack(ms: number): void {
    this.current -= ms;
    for (const t of this.timers) t.at -= ms;
  }

  /** Time of the earliest pending timer, or null. */
  nextTimerAt(): number | null {
    return this.timers.reduce<number | null>((min, t) => (min === null || t.at < min ? t.at : min), null);
  }
}

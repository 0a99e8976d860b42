import { CLOCK_STEP_TOLERANCE_MS, type Clock } from './clock.js';

/**
 * Wake-ups keyed by due time with ONE clock timer for all keys: `set(key, at)` (the latest call
 * for a key wins), `delete(key)`; when the earliest time comes, `onDue(key)` is called for every
 * key that is due. A binary min-heap with lazy deletion keeps set/fire at O(log n), so 1,000
 * schedules cost one timer and nothing between firings.
 *
 * The timer never sleeps longer than `maxSleepMs` (setTimeout overflows past ~24.8 days, and a
 * wall-clock step should be noticed within minutes); an early wake finds nothing due and re-arms.
 * A wake that finds the wall clock stepped back moves every due time back by as much: a wait
 * asked for ("in 2 s", a retry's backoff) keeps what it had left instead of growing by the step.
 */
export class DueTimer<K> {
  private readonly due = new Map<K, number>();
  private heap: { at: number; seq: number; key: K }[] = [];
  private seq = 0;
  private cancel: (() => void) | null = null;
  private armedFor = Infinity;
  /** Wall-clock and monotonic readings when the timer was armed: a wall clock stepped back meanwhile shows as less wall time passed than monotonic time. */
  private armedWall = 0;
  private armedMono = 0;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (key: K) => void,
    private readonly maxSleepMs = 10 * 60_000,
  ) {}

  set(key: K, at: number): void {
    if (this.closed || this.due.get(key) === at) return;
    this.due.set(key, at);
    this.push({ at, seq: this.seq++, key });
    if (this.heap.length > 64 && this.heap.length > 4 * this.due.size) this.compact();
    this.arm();
  }

  delete(key: K): void {
    if (this.due.delete(key)) this.arm();
  }

  /** The due time of a key, if any. */
  get(key: K): number | undefined {
    return this.due.get(key);
  }

  get size(): number {
    return this.due.size;
  }

  /** Cancels the timer and every wake-up. */
  stop(): void {
    this.closed = true;
    this.cancel?.();
    this.cancel = null;
    this.due.clear();
    this.heap = [];
  }

  private arm(): void {
    this.dropStaleTop();
    const earliest = this.heap[0]?.at ?? Infinity;
    if (earliest === this.armedFor) return;
    this.cancel?.();
    this.cancel = null;
    this.armedFor = earliest;
    if (earliest === Infinity) return;
    const now = this.clock.now();
    const delay = Math.min(this.maxSleepMs, Math.max(0, earliest - now));
    this.armedWall = now;
    this.armedMono = this.clock.monotonic?.() ?? 0;
    this.cancel = this.clock.setTimer(delay, () => this.fire());
  }

  private fire(): void {
    this.cancel = null;
    this.armedFor = Infinity;
    const now = this.clock.now();
    // Less wall time passed than monotonic time since the timer was armed: the wall clock was
    // stepped back meanwhile (timers wait in monotonic time).
    const mono = this.clock.monotonic?.();
    const stepBack = mono === undefined ? 0 : mono - this.armedMono - (now - this.armedWall);
    if (stepBack > CLOCK_STEP_TOLERANCE_MS) this.shift(-stepBack);
    const ready: K[] = [];
    for (;;) {
      this.dropStaleTop();
      const top = this.heap[0];
      if (!top || top.at > now) break;
      this.pop();
      this.due.delete(top.key);
      ready.push(top.key);
    }
    this.arm();
    for (const key of ready) this.onDue(key);
  }

  /** An entry is stale when its key was re-set to another time or deleted since it was pushed. */
  private dropStaleTop(): void {
    while (this.heap.length > 0 && this.due.get(this.heap[0].key) !== this.heap[0].at) this.pop();
  }

  /** Moves every due time by `ms`. */
  private shift(ms: number): void {
    for (const [key, at] of this.due) this.due.set(key, at + ms);
    this.compact();
  }

  private compact(): void {
    this.heap = [];
    for (const [key, at] of this.due) this.push({ at, seq: this.seq++, key });
  }

  private push(entry: { at: number; seq: number; key: K }): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i], h[parent])) break;
      [h[parent], h[i]] = [h[i], h[parent]];
      i = parent;
    }
  }

  /** Earlier time first; equal times in the order they were set. */
  private before(a: { at: number; seq: number }, b: { at: number; seq: number }): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < h.length && this.before(h[l], h[min])) min = l;
      if (r < h.length && this.before(h[r], h[min])) min = r;
      if (min === i) break;
      [h[min], h[i]] = [h[i], h[min]];
      i = min;
    }
  }
}

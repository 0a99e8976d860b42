import type { Clock } from './clock.js';

/**
 * A work queue of keys with the semantics controllers rely on:
 * - a key queued twice before it is taken is handed out once (dedupe);
 * - a key being processed is never handed out again until `done`; if it was added meanwhile,
 *   `done` queues it again (so no change is lost);
 * - `addAfter` delays a key (the earliest pending due time wins) with one clock timer in all;
 * - `addRateLimited` delays by per-key exponential backoff until `forget`.
 */
export class WorkQueue<K> {
  private readonly ready = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly dirty = new Set<K>();
  private readonly delayed = new Map<K, number>();
  private readonly failures = new Map<K, number>();
  private cancelTimer: (() => void) | null = null;
  private timerAt = Infinity;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly onReady: () => void,
    private readonly backoff = { baseMs: 50, maxMs: 30_000 },
  ) {}

  add(key: K): void {
    if (this.closed) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.delayed.delete(key);
    if (!this.ready.has(key)) {
      this.ready.add(key);
      this.onReady();
    }
  }

  addAfter(key: K, ms: number): void {
    if (this.closed) return;
    if (ms <= 0) return this.add(key);
    const at = this.clock.now() + ms;
    const pending = this.delayed.get(key);
    if (pending !== undefined && pending <= at) return;
    this.delayed.set(key, at);
    this.armTimer();
  }

  addRateLimited(key: K): void {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    this.addAfter(key, Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (failures - 1)));
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  /** Takes the next ready key and marks it in flight, or returns undefined. */
  take(): K | undefined {
    for (const key of this.ready) {
      this.ready.delete(key);
      this.processing.add(key);
      return key;
    }
    return undefined;
  }

  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  get length(): number {
    return this.ready.size;
  }

  get inFlight(): number {
    return this.processing.size;
  }

  shutDown(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.ready.clear();
    this.delayed.clear();
  }

  private armTimer(): void {
    let earliest = Infinity;
    for (const at of this.delayed.values()) if (at < earliest) earliest = at;
    if (earliest === this.timerAt) return;
    this.cancelTimer?.();
    this.timerAt = earliest;
    if (earliest === Infinity) {
      this.cancelTimer = null;
      return;
    }
    this.cancelTimer = this.clock.setTimer(earliest - this.clock.now(), () => this.fireDue());
  }

  private fireDue(): void {
    this.timerAt = Infinity;
    this.cancelTimer = null;
    const now = this.clock.now();
    for (const [key, at] of [...this.delayed]) {
      if (at <= now) {
        this.delayed.delete(key);
        this.add(key);
      }
    }
    this.armTimer();
  }
}

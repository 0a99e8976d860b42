import type { Clock } from './clock.js';
import { DueTimer } from './due-timer.js';

/**
 * A work queue of keys with the semantics controllers rely on:
 * - a key queued twice before it is taken is handed out once (dedupe);
 * - a key being processed is never handed out again until `done`; if it was added meanwhile,
 *   `done` queues it again (so no change is lost);
 * - `addAfter` delays a key (the earliest pending due time wins); all delayed keys share one
 *   clock timer through a min-heap (`DueTimer`), so 1,000 schedules cost O(log n) each;
 * - `addRateLimited` delays by per-key exponential backoff until `forget`.
 */
export class WorkQueue<K> {
  /** Ready keys (membership) and their order: taking the first key of a Set walks the holes its
   * earlier deletions left, O(n) per take, so the order is kept in an array with a moving head. */
  private readonly ready = new Set<K>();
  private order: K[] = [];
  private head = 0;
  private readonly processing = new Set<K>();
  private readonly dirty = new Set<K>();
  private readonly delayed: DueTimer<K>;
  private readonly failures = new Map<K, number>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly onReady: () => void,
    private readonly backoff = { baseMs: 50, maxMs: 30_000 },
  ) {
    this.delayed = new DueTimer(clock, (key) => this.add(key));
  }

  add(key: K): void {
    if (this.closed) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.delayed.delete(key);
    if (!this.ready.has(key)) {
      this.ready.add(key);
      this.order.push(key);
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
    while (this.head < this.order.length) {
      const key = this.order[this.head++];
      if (!this.ready.delete(key)) continue; // taken or cleared since it was queued
      if (this.head >= 1024 && this.head * 2 >= this.order.length) {
        this.order = this.order.slice(this.head);
        this.head = 0;
      }
      this.processing.add(key);
      return key;
    }
    this.order = [];
    this.head = 0;
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

  /** Keys waiting for their requeue time. */
  get delayedCount(): number {
    return this.delayed.size;
  }

  shutDown(): void {
    this.closed = true;
    this.delayed.stop();
    this.ready.clear();
    this.order = [];
    this.head = 0;
  }
}

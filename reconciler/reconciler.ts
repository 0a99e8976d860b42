import type { Clock } from './clock.js';
import { WorkQueue } from './work-queue.js';

/** What one reconcile pass asks of the loop. */
export interface Result {
  /** Run this key again after this many milliseconds (0 = as soon as possible). */
  requeueAfterMs?: number;
}

/** Reconciles one key: reads desired and observed state now and acts on the difference. */
export type ReconcileFn<K> = (key: K) => Promise<Result | void>;

export interface ReconcilerOptions {
  /** Keys processed at once (different keys; a key is never processed twice at once). */
  workers?: number;
  /** Called when a reconcile throws; the key is requeued with rate-limited backoff. */
  onError?: (key: unknown, err: unknown) => void;
}

/**
 * The level-triggered loop: events only `enqueue` keys; workers run `reconcile` per key.
 * A thrown error never stops the loop: the key is retried with backoff.
 */
export class Reconciler<K> {
  readonly queue: WorkQueue<K>;
  private running = 0;
  private readonly workers: number;
  private idleWaiters: (() => void)[] = [];
  private started = false;
  /** Total passes and the sum of their durations, for metrics. */
  passes = 0;
  passMs = 0;

  constructor(
    private readonly clock: Clock,
    private readonly reconcile: ReconcileFn<K>,
    private readonly options: ReconcilerOptions = {},
  ) {
    this.workers = options.workers ?? 64;
    this.queue = new WorkQueue<K>(clock, () => this.pump());
  }

  start(): void {
    this.started = true;
    this.pump();
  }

  enqueue(key: K): void {
    this.queue.add(key);
  }

  enqueueAfter(key: K, ms: number): void {
    this.queue.addAfter(key, ms);
  }

  /** Stops taking work; resolves when passes in flight have finished. */
  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.idle();
  }

  /** Resolves when no key is ready or in flight (delayed keys do not count). */
  idle(): Promise<void> {
    if (this.running === 0 && (this.queue.length === 0 || !this.started)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    if (!this.started) return;
    while (this.running < this.workers) {
      const key = this.queue.take();
      if (key === undefined) break;
      this.running++;
      void this.process(key);
    }
    if (this.running === 0 && this.queue.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async process(key: K): Promise<void> {
    const began = this.clock.now();
    try {
      const result = await this.reconcile(key);
      this.queue.forget(key);
      if (result?.requeueAfterMs !== undefined) this.queue.addAfter(key, result.requeueAfterMs);
    } catch (err) {
      this.options.onError?.(key, err);
      this.queue.addRateLimited(key);
    } finally {
      this.passes++;
      this.passMs += this.clock.now() - began;
      this.queue.done(key);
      this.running--;
      this.pump();
    }
  }
}

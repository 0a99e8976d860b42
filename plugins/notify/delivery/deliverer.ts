import type { Agent } from 'undici';
import type { Clock } from '../../../reconciler/clock.js';
import type { Channel, Delivery } from '../config/types.js';
import { scrubSecrets } from '../redact.js';
import { payloadFor, type MessageBody } from './payload.js';
import { deliveryAgent, postOnce, type Attempt, type DeliveryResult } from './send.js';

/** Counters of one channel's deliveries since svcd started. */
export interface DeliveryCounters {
  delivered: number;
  failed: number;
  /** Messages dropped because the queue was full. */
  dropped: number;
  /** Attempts after the first. */
  retries: number;
  last_status: number | null;
  last_error: string | null;
  /** Unix ms of the last finished delivery. */
  last_at: number | null;
}

export interface DeliveryJob {
  channel: Channel;
  message: MessageBody;
}

export type PostFn = (url: string, body: string, headers: Record<string, string>) => Promise<Attempt>;

/**
 * The delivery side: a bounded queue drained by `concurrency` workers, each message POSTed with
 * the timeouts of `[delivery]`, retried with doubling backoff after a 5xx, 429 or network error,
 * never after another 4xx. `enqueue` never waits: a full queue drops the message and counts it.
 */
export class Deliverer {
  private readonly queue: DeliveryJob[] = [];
  private readonly counters = new Map<string, DeliveryCounters>();
  /** Attempts (POSTs) in progress: what `concurrency` limits. */
  private active = 0;
  /** Jobs taken from the queue and not finished: in an attempt or waiting for a retry. */
  private started = 0;
  /** Retries whose backoff ended, waiting for a free worker (served before the queue). */
  private readonly slotWaits: ((ok: boolean) => void)[] = [];
  private closed = false;
  private agent: Promise<Agent> | null = null;
  private readonly waits = new Set<() => void>();
  private idleWaits: (() => void)[] = [];

  constructor(
    private delivery: Delivery,
    private readonly deps: {
      clock: Clock;
      /** Replaces the HTTP client (unit tests). */
      post?: PostFn;
      onResult: (job: DeliveryJob, result: DeliveryResult) => void;
      onDropped: (job: DeliveryJob) => void;
      /**
       * The channel of that name in force now (null: removed by a reload). Each attempt of a
       * queued or retried message goes where the channel points at that moment.
       */
      current?: (name: string) => Channel | null;
    },
  ) {}

  /** New `[delivery]` settings; messages in flight finish with the old client. */
  configure(delivery: Delivery): void {
    if (JSON.stringify(delivery) === JSON.stringify(this.delivery)) return;
    this.delivery = delivery;
    const old = this.agent;
    this.agent = null;
    if (old) void old.then((a) => a.close()).catch(() => undefined); // finishes what it carries, then ends
    this.pump(); // a higher concurrency applies to what waits now
  }

  enqueue(job: DeliveryJob): boolean {
    if (this.closed || this.queue.length >= this.delivery.queue_size) {
      this.count(job.channel.name).dropped++;
      this.deps.onDropped(job);
      return false;
    }
    this.queue.push(job);
    this.pump();
    return true;
  }

  /** Delivers at once, outside the queue and the worker limit (the test route); `retries` attempts after the first. */
  deliverNow(job: DeliveryJob, retries: number): Promise<DeliveryResult> {
    return this.deliver(job, retries, false);
  }

  queued(): number {
    return this.queue.length;
  }

  /** Messages being delivered: in an attempt, or waiting for their next retry. */
  busy(): number {
    return this.started;
  }

  stats(name: string): DeliveryCounters {
    return { ...this.count(name) };
  }

  /** Resolves when nothing is queued or being delivered (now, if so). */
  idle(): Promise<void> {
    if (this.queue.length === 0 && this.started === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaits.push(resolve));
  }

  /** Drops what waits, cancels retry timers, and closes the HTTP client without waiting for a hung receiver. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    for (const resolve of this.idleWaits.splice(0)) resolve();
    for (const resolve of this.slotWaits.splice(0)) resolve(false);
    for (const cancel of this.waits) cancel();
    this.waits.clear();
    const agent = this.agent;
    this.agent = null;
    await agent?.then((a) => a.destroy()).catch(() => undefined);
  }

  private pump(): void {
    while (!this.closed && this.active < this.delivery.concurrency && this.slotWaits.length === 0 && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active++; // the first attempt's worker
      this.started++;
      void this.deliver(job, this.delivery.retries, true)
        .then((result) => this.deps.onResult(job, result))
        .finally(() => {
          this.started--;
          if (this.started === 0 && this.queue.length === 0) for (const resolve of this.idleWaits.splice(0)) resolve();
        });
    }
  }

  /** A worker for a retry; false when svcd is stopping. */
  private acquire(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.active < this.delivery.concurrency && this.slotWaits.length === 0) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.slotWaits.push(resolve));
  }

  /** An attempt ended: its worker goes to a waiting retry first, else to the queue. */
  private release(): void {
    this.active--;
    if (this.closed) return;
    const next = this.active < this.delivery.concurrency ? this.slotWaits.shift() : undefined;
    if (next) {
      this.active++;
      next(true);
    } else this.pump();
  }

  /**
   * The attempts of one message. With `limited`, each attempt holds one of the `concurrency`
   * workers (the first one is taken by `pump`); the backoff between attempts holds none, so a
   * dead receiver being retried does not stop the other channels' messages.
   */
  private async deliver(job: DeliveryJob, retries: number, limited: boolean): Promise<DeliveryResult> {
    const started = this.deps.clock.now();
    const c = this.count(job.channel.name);
    let channel = job.channel;
    let attempt: Attempt = { status: null, error: 'not attempted', retryable: false };
    let attempts = 0;
    for (;;) {
      if (limited && attempts > 0 && !(await this.acquire())) break; // shutting down: the last attempt's failure is the result
      // A reload since the message was decided: its channel's URL, headers and kind now; none if it went.
      const now = limited && this.deps.current ? this.deps.current(job.channel.name) : channel;
      if (!now || !now.enabled) {
        if (limited) this.release(); // the worker this attempt would have used
        attempt = { status: attempt.status, error: `not sent: channel ${job.channel.name} was ${now ? 'disabled' : 'removed'} by a reload of the configuration${attempts > 0 ? ` (last attempt: ${attempt.error})` : ''}`, retryable: false };
        break;
      }
      channel = now;
      attempts++;
      try {
        attempt = await this.post(channel.url, JSON.stringify(payloadFor(channel.kind, job.message)), channel.headers);
      } finally {
        if (limited) this.release();
      }
      if (attempt.error === null || !attempt.retryable || attempts > retries || this.closed) break;
      c.retries++;
      await this.sleep(this.delivery.retry_backoff_ms * 2 ** (attempts - 1));
      if (this.closed) break; // shutting down: the last attempt's failure is the result
    }
    const ok = attempt.error === null;
    if (ok) c.delivered++;
    else c.failed++;
    // The receiver's answer may echo the URL or a header (a 404 page): the secrets go before anyone sees it.
    const error = attempt.error === null ? null : scrubSecrets(scrubSecrets(attempt.error, channel), job.channel);
    c.last_status = attempt.status;
    c.last_error = error;
    c.last_at = this.deps.clock.now();
    return { ok, status: attempt.status, attempts, error, duration_ms: c.last_at - started };
  }

  private async post(url: string, body: string, headers: Record<string, string>): Promise<Attempt> {
    if (this.deps.post) return this.deps.post(url, body, headers);
    this.agent ??= deliveryAgent(this.delivery.timeout_secs);
    return postOnce(await this.agent, url, body, headers, this.delivery.timeout_secs * 1000);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.deps.clock.setTimer(ms, () => {
        this.waits.delete(done);
        resolve();
      });
      const done = () => {
        cancel();
        resolve();
      };
      this.waits.add(done);
    });
  }

  private count(name: string): DeliveryCounters {
    let c = this.counters.get(name);
    if (!c) this.counters.set(name, (c = { delivered: 0, failed: 0, dropped: 0, retries: 0, last_status: null, last_error: null, last_at: null }));
    return c;
  }
}

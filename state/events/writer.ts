import { BoundedQueue } from './queue.js';
import { stampEvent } from './stamp.js';
import type { EventInput, EventRecord, EventSink } from './types.js';
import type { EventClock } from './clock.js';

/** Records that wait in memory for the writer; beyond this, new records are dropped. */
export const QUEUE_CAPACITY = 65_536;
/** Rows per LevelDB batch (spec: up to 512 rows per flush). */
export const BATCH_SIZE = 512;

export interface WriterStats {
  /** Records waiting in the queue now. */
  queued: number;
  /** Records committed to disk since open. */
  written: number;
  /** Records refused because the queue was full (or the log was closed). */
  dropped: number;
  /** Records lost because their batch failed to write. */
  failed: number;
}

export interface WriterOptions {
  clock: EventClock;
  /** Commits one batch (records and index entries) and updates counters. */
  write: (records: EventRecord[]) => Promise<void>;
  /** The sequence number of the first record stamped by this writer. */
  firstSeq: number;
  capacity?: number;
  batchSize?: number;
  /** Runs the background writer soon; default setImmediate. Tests pass a manual scheduler. */
  schedule?: (fn: () => void) => void;
  onWriteError?: (err: unknown, lost: number) => void;
  /**
   * For a write the store refused for now (a full disk): resolves true once it takes writes
   * again, false if it closed first. The batch is kept and written then. Null for other errors.
   */
  whenWritable?: (err: unknown) => Promise<boolean> | null;
}

/**
 * The `EventSink` of the daemon. `emit` stamps the record and queues it, never awaiting or
 * throwing; a background loop drains the queue in batches of at most `batchSize` rows.
 */
export class EventWriter implements EventSink {
  private readonly queue: BoundedQueue<EventRecord>;
  private readonly batchSize: number;
  private readonly schedule: (fn: () => void) => void;
  private seq: number;
  private draining: Promise<void> | null = null;
  /** The writer waits for the store to take writes again; queued records are kept meanwhile. */
  private parked = false;
  private flushWaiters: (() => void)[] = [];
  private scheduled = false;
  private closed = false;
  private readonly counts = { written: 0, dropped: 0, failed: 0 };

  constructor(private readonly opts: WriterOptions) {
    this.queue = new BoundedQueue(opts.capacity ?? QUEUE_CAPACITY);
    this.batchSize = opts.batchSize ?? BATCH_SIZE;
    this.schedule = opts.schedule ?? ((fn) => void setImmediate(fn));
    this.seq = opts.firstSeq;
  }

  emit(input: EventInput): void {
    if (this.push(stampEvent(input, this.opts.clock.now(), this.seq))) this.seq++;
  }

  /** Queues a record stamped elsewhere (the event bus); false when it was dropped. */
  push(record: EventRecord): boolean {
    if (this.closed || !this.queue.push(record)) {
      this.counts.dropped++;
      return false;
    }
    this.kick();
    return true;
  }

  /** The sequence number the next record stamped here would get. */
  get nextSeq(): number {
    return this.seq;
  }

  stats(): WriterStats {
    return { queued: this.queue.size, ...this.counts };
  }

  /**
   * Resolves once every record queued before the call is on disk (or counted as failed), or
   * when the writer waits for the store to take writes again (they stay queued: `stats().queued`).
   */
  async flush(): Promise<void> {
    while (!this.parked && (this.draining || this.queue.size > 0)) {
      const settled = new Promise<void>((resolve) => this.flushWaiters.push(resolve));
      if (!this.draining) void this.startDrain();
      await settled;
    }
  }

  /** Refuses new records, then flushes the queue. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private kick(): void {
    if (this.scheduled || this.draining) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      if (!this.draining) void this.startDrain();
    });
  }

  private startDrain(): Promise<void> {
    const run: Promise<void> = this.drain().finally(() => {
      if (this.draining === run) this.draining = null;
      this.wakeFlushers();
    });
    this.draining = run;
    return run;
  }

  /** Waits (without holding up flush) until the store takes writes again; false if it closed. */
  private async park(wait: Promise<boolean>): Promise<boolean> {
    this.parked = true;
    this.wakeFlushers();
    try {
      return await wait;
    } finally {
      this.parked = false;
    }
  }

  private wakeFlushers(): void {
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    for (const w of waiters) w();
  }

  /** The background writer: one batch at a time until the queue is empty. Never rejects. */
  private async drain(): Promise<void> {
    while (this.queue.size > 0) {
      const batch = this.queue.take(this.batchSize);
      try {
        await this.opts.write(batch);
        this.counts.written += batch.length;
      } catch (err) {
        const wait = this.opts.whenWritable?.(err) ?? null;
        if (wait) {
          this.counts.failed += batch.length - this.queue.pushFront(batch);
          if (!(await this.park(wait))) return;
          continue;
        }
        this.counts.failed += batch.length;
        try {
          this.opts.onWriteError?.(err, batch.length);
        } catch {
          // a failing error reporter must not stop the writer
        }
      }
    }
  }
}

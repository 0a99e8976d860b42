import type { EventClock } from './clock.js';
import { EventCounters, type TypeCounts } from './counters.js';
import { tsMsOf } from './keys.js';
import { pruneBefore } from './prune.js';
import { queryEvents } from './query.js';
import type { EventQuery } from './query-types.js';
import { rebuildCounters } from './rebuild.js';
import { Retention } from './retention.js';
import { EventStore, type KeyRange, type Space } from './store.js';
import { describeOpenReport } from '../level/open-level.js';
import type { WriteHealth } from '../level/guarded-level.js';
import type { EventInput, EventRecord, EventSink } from './types.js';
import { EventWriter, type WriterStats } from './writer.js';

/** Event statistics (spec): counts by type, and the retained time range in Unix seconds. */
export interface EventStats extends TypeCounts {
  first_ts: number | null;
  last_ts: number | null;
}

/** The event history's health for `GET /api/v1/system/storage` and `svc storage`. */
export interface EventHistoryReport extends WriteHealth {
  /** Records waiting in memory (written once the store takes writes again). */
  queued: number;
  /** Stored records skipped by queries because they are not event records. */
  malformed_records: number;
  /** What the last open found damaged and dropped, or null for a clean open. */
  recovered_at_open: string | null;
}

export interface EventLogOptions {
  /** `[storage] events_file`: the LevelDB directory. */
  file: string;
  /** `[storage] events_keep_days`; 0 keeps everything. */
  keepDays: number;
  clock: EventClock;
  /** Queue capacity and batch size; defaults QUEUE_CAPACITY and BATCH_SIZE (writer.ts). */
  capacity?: number;
  batchSize?: number;
  /** How the background writer is woken; default setImmediate. */
  schedule?: (fn: () => void) => void;
  /** Write and retention failures; the log keeps running. */
  onError?: (msg: string, fields: Record<string, unknown>) => void;
  onPruned?: (deleted: number, cutoffMs: number) => void;
}

/**
 * The persistent event history: the daemon's `EventSink` and the API's query source. Composes
 * the store, the queued writer, the running counters and daily retention.
 */
export class EventLog implements EventSink {
  private constructor(
    private readonly store: EventStore,
    private readonly counters: EventCounters,
    private readonly writer: EventWriter,
    private readonly retention: Retention,
  ) {}

  /** Opens the store, rebuilds the counters, runs a first retention pass, schedules the next. */
  static async open(opts: EventLogOptions): Promise<EventLog> {
    const store = await EventStore.open(opts.file, {
      clock: opts.clock,
      onHealth: (health, err) => {
        if (!health.writable) opts.onError?.('the event history refuses writes; events are held in memory (up to the queue capacity)', { reason: health.problem, error: String(err) });
      },
      onMalformed: (key) => opts.onError?.('event history record is malformed; queries skip it', { key }),
    });
    if (store.openReport) opts.onError?.('the event history was damaged; what could be read was kept', { detail: describeOpenReport(store.openReport) });
    try {
      const counters = new EventCounters();
      const maxSeq = await rebuildCounters(store, counters);
      const count = (records: EventRecord[], delta: 1 | -1) => records.forEach((r) => counters.add(r.event, r.program_id, delta));
      const writer = new EventWriter({
        clock: opts.clock,
        firstSeq: maxSeq + 1,
        capacity: opts.capacity,
        batchSize: opts.batchSize,
        schedule: opts.schedule,
        write: async (records) => {
          await store.write(records);
          count(records, 1);
        },
        onWriteError: (err, lost) => opts.onError?.('event write failed; records lost', { lost, error: String(err) }),
        whenWritable: (err) => store.whenWritable(err),
      });
      const retention = new Retention({
        clock: opts.clock,
        keepDays: opts.keepDays,
        prune: (cutoff) => pruneBefore(store, cutoff, (records) => count(records, -1)),
        onPruned: opts.onPruned,
        onError: (err) => opts.onError?.('event retention failed', { error: String(err) }),
      });
      await retention.start();
      return new EventLog(store, counters, writer, retention);
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  emit(event: EventInput): void {
    this.writer.emit(event);
  }

  /** Queues a record already stamped by the event bus (never blocks; a full queue drops it). */
  append(record: EventRecord): void {
    this.writer.push(record);
  }

  /** The first free sequence number: the event bus stamps from here. */
  get nextSeq(): number {
    return this.writer.nextSeq;
  }

  /** Whether the history takes writes, what waits in memory, what was skipped or lost. */
  report(): EventHistoryReport {
    return {
      ...this.store.health(),
      queued: this.writer.stats().queued,
      malformed_records: this.store.malformedCount,
      recovered_at_open: this.store.openReport ? describeOpenReport(this.store.openReport) : null,
    };
  }

  /** Queue depth and written/dropped/failed counts since open (for /metrics). */
  writerStats(): WriterStats {
    return this.writer.stats();
  }

  /** Resolves when everything emitted so far is on disk. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Records on disk that match the query (queued records show up once written). */
  query(q: EventQuery): Promise<EventRecord[]> {
    return queryEvents(this.store, q);
  }

  /** Statistics for one program, or for the whole daemon when `programId` is undefined. */
  async stats(programId?: string): Promise<EventStats> {
    const counts = this.counters.counts(programId);
    const [space, range]: [Space, KeyRange] =
      programId === undefined ? ['events', { gte: '', lt: '~' }] : ['by_program', { gte: `${programId}!`, lt: `${programId}"` }];
    const [first, last] = await Promise.all([this.store.firstKey(space, range), this.store.firstKey(space, { ...range, reverse: true })]);
    const tsOf = (key: string | undefined) => (key === undefined ? null : Math.floor(tsMsOf(key.slice(key.indexOf('!') + 1)) / 1000));
    return { ...counts, first_ts: tsOf(first), last_ts: tsOf(last) };
  }

  /** Waits for a retention pass started by the clock (tests). */
  retentionIdle(): Promise<void> {
    return this.retention.whenIdle();
  }

  /** Stops retention, flushes the queue (later emits are dropped) and closes the store. */
  async close(): Promise<void> {
    await this.retention.stop();
    await this.writer.close();
    await this.store.close();
  }
}

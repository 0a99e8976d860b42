import { dirname } from 'node:path';
import { EVENT_STORE_OPTIONS } from '../level-options.js';
import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { GuardedLevel, type GuardClock, type WriteHealth } from '../level/guarded-level.js';
import { lostAtOpen, openLevel, type OpenReport } from '../level/open-level.js';
import { reopenLevel } from '../level/reopen.js';
import { hasRoomToReopen } from '../level/room.js';
import { foreignKey } from '../level/foreign-key.js';
import { StoreOpenError, StoreWriteError } from '../level/store-errors.js';
import { programKey, typeKey } from './keys.js';
import { parseEventRecord } from './parse-record.js';
import type { EventRecord } from './types.js';

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>;
type Sub = AbstractSublevel<Db, string | Buffer | Uint8Array, string, string>;
type BatchOp = { type: 'put'; sublevel: Sub; key: string; value: string } | { type: 'del'; sublevel: Sub; key: string };

/** Which keyspace to read: records by id, or one of the two secondary indexes. */
export type Space = 'events' | 'by_program' | 'by_type';

/** A key range inside one keyspace, iterated in key order (or reversed). */
export interface KeyRange {
  gte: string;
  lt: string;
  reverse?: boolean;
}

const CHUNK = 256;

export interface EventStoreOptions {
  clock: GuardClock;
  /** Write refusals and recoveries (a full disk), with the error that started a refusal. */
  onHealth?: (health: WriteHealth, err?: unknown) => void;
  /** A stored record that is not an event record: skipped by every read, reported here once. */
  onMalformed?: (key: string) => void;
}

/**
 * The event history on disk: its own LevelDB (not the program store). Records live under
 * `events` keyed by id; `by_program` and `by_type` index them (README.md). Every write or delete
 * is one atomic batch covering a record and its index entries.
 */
export class EventStore {
  private readonly spaces: Record<Space, Sub>;
  private readonly guard: GuardedLevel;
  private readonly malformed = new Set<string>();
  /** What opening found damaged and dropped (a damaged log never refuses the history), or null. */
  openReport: OpenReport | null = null;

  private constructor(
    private readonly db: Db,
    location: string,
    private readonly opts: EventStoreOptions,
  ) {
    this.spaces = { events: db.sublevel('e'), by_program: db.sublevel('p'), by_type: db.sublevel('t') };
    this.guard = new GuardedLevel(db, {
      what: 'the event history',
      dir: dirname(location),
      clock: opts.clock,
      reopen: () => reopenLevel(db, Object.values(this.spaces), location).then(() => undefined),
      hasRoom: () => hasRoomToReopen(location),
      onChange: opts.onHealth,
    });
  }

  /**
   * Opens (creating if needed) the LevelDB at `location`. A damaged write-ahead log does not
   * refuse the history (it is not desired state): its copy is kept aside and the loss reported
   * in `openReport`. A store LevelDB cannot open at all is refused, naming the damaged file.
   */
  static async open(location: string, opts: EventStoreOptions): Promise<EventStore> {
    const stamp = new Date(opts.clock.now()).toISOString().replace(/[:.]/g, '-');
    const { db, report } = await openLevel({ location, options: EVENT_STORE_OPTIONS, what: 'the event history', policy: 'accept', stamp, remedy: '' });
    const store = new EventStore(db, location, opts);
    const foreign = await foreignKey(db, Object.values(store.spaces));
    if (foreign !== null) {
      await db.close();
      throw new StoreOpenError(
        `the event history at ${location} holds no event but other keys (the first: ${JSON.stringify(foreign.slice(0, 60))}): it is not svc's event history (the state store, another program's LevelDB?); ` +
          "svcd refuses to start rather than write events into it. Point [storage] events_file at svc's event history, or move this folder aside.",
      );
    }
    store.openReport = lostAtOpen(report) ? report : null;
    return store;
  }

  /** Whether writes are taken now (a full disk refuses them until there is room). */
  health(): WriteHealth {
    return this.guard.health();
  }

  /** For a refused write: resolves true once writes are taken again (false: closed); null for other errors. */
  whenWritable(err: unknown): Promise<boolean> | null {
    return err instanceof StoreWriteError && this.guard.refusedWith !== null ? this.guard.whenWritable() : null;
  }

  /** Stored records skipped by reads because they are not event records. */
  get malformedCount(): number {
    return this.malformed.size;
  }

  /** The record stored under `key`, or null (counted and reported once) when it is not one. */
  parse(key: string, value: string): EventRecord | null {
    const record = parseEventRecord(value, key);
    if (record === null && !this.malformed.has(key)) {
      this.malformed.add(key);
      this.opts.onMalformed?.(key);
    }
    return record;
  }

  /** Writes records and their index entries in one batch. */
  async write(records: EventRecord[]): Promise<void> {
    const { events, by_program, by_type } = this.spaces;
    const ops: BatchOp[] = [];
    for (const r of records) {
      ops.push({ type: 'put', sublevel: events, key: r.id, value: JSON.stringify(r) });
      if (r.program_id !== null) ops.push({ type: 'put', sublevel: by_program, key: programKey(r.program_id, r.id), value: r.event });
      ops.push({ type: 'put', sublevel: by_type, key: typeKey(r.event, r.id), value: r.program_id ?? '' });
    }
    // The array form: a chained batch with sublevels costs about 4x more CPU per row.
    await this.guard.batch(ops);
  }

  /** Deletes records and their index entries in one batch, and the malformed records stored under `malformedKeys`. */
  async remove(records: EventRecord[], malformedKeys: string[] = []): Promise<void> {
    const { events, by_program, by_type } = this.spaces;
    const ops: BatchOp[] = malformedKeys.map((key) => ({ type: 'del', sublevel: events, key }));
    for (const r of records) {
      ops.push({ type: 'del', sublevel: events, key: r.id });
      if (r.program_id !== null) ops.push({ type: 'del', sublevel: by_program, key: programKey(r.program_id, r.id) });
      ops.push({ type: 'del', sublevel: by_type, key: typeKey(r.event, r.id) });
    }
    await this.guard.batch(ops);
  }

  /** The records with these ids, in the same order; missing and malformed ones are skipped. */
  async get(ids: string[]): Promise<EventRecord[]> {
    await this.guard.ready();
    const values = await this.spaces.events.getMany(ids);
    const out: EventRecord[] = [];
    values.forEach((v, i) => {
      const record = v === undefined ? null : this.parse(ids[i], v);
      if (record) out.push(record);
    });
    return out;
  }

  /** Key/value entries of a range, fetched in chunks; stop early by breaking out of the loop. */
  async *entries(space: Space, range: KeyRange, chunk = CHUNK): AsyncGenerator<[string, string][]> {
    await this.guard.ready();
    const it = this.spaces[space].iterator({ gte: range.gte, lt: range.lt, reverse: range.reverse ?? false });
    try {
      for (;;) {
        const entries = await it.nextv(chunk);
        if (entries.length === 0) return;
        yield entries;
      }
    } finally {
      await it.close();
    }
  }

  /** The first (or, reversed, the last) key of a range, or undefined when it is empty. */
  async firstKey(space: Space, range: KeyRange): Promise<string | undefined> {
    await this.guard.ready();
    const keys = await this.spaces[space].keys({ gte: range.gte, lt: range.lt, reverse: range.reverse ?? false, limit: 1 }).all();
    return keys[0];
  }

  async close(): Promise<void> {
    await this.guard.close();
    await this.db.close();
  }
}

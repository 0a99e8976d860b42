import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { EVENT_STORE_OPTIONS } from '../level-options.js';
import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { programKey, typeKey } from './keys.js';
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

/**
 * The event history on disk: its own LevelDB (not the program store). Records live under
 * `events` keyed by id; `by_program` and `by_type` index them (README.md). Every write or delete
 * is one atomic batch covering a record and its index entries.
 */
export class EventStore {
  private readonly spaces: Record<Space, Sub>;

  private constructor(private readonly db: Db) {
    this.spaces = { events: db.sublevel('e'), by_program: db.sublevel('p'), by_type: db.sublevel('t') };
  }

  /** Opens (creating if needed) the LevelDB at `location`. */
  static async open(location: string): Promise<EventStore> {
    mkdirSync(dirname(location), { recursive: true });
    const db = new ClassicLevel<string, string>(location, EVENT_STORE_OPTIONS);
    try {
      await db.open();
    } catch (err) {
      throw new Error(`cannot open the event history at ${location}: ${(err as Error).message}`, { cause: err });
    }
    return new EventStore(db);
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
    await this.db.batch(ops);
  }

  /** Deletes records and their index entries in one batch. */
  async remove(records: EventRecord[]): Promise<void> {
    const { events, by_program, by_type } = this.spaces;
    const ops: BatchOp[] = [];
    for (const r of records) {
      ops.push({ type: 'del', sublevel: events, key: r.id });
      if (r.program_id !== null) ops.push({ type: 'del', sublevel: by_program, key: programKey(r.program_id, r.id) });
      ops.push({ type: 'del', sublevel: by_type, key: typeKey(r.event, r.id) });
    }
    await this.db.batch(ops);
  }

  /** The records with these ids, in the same order; missing ids are skipped. */
  async get(ids: string[]): Promise<EventRecord[]> {
    const values = await this.spaces.events.getMany(ids);
    return values.filter((v): v is string => v !== undefined).map((v) => JSON.parse(v) as EventRecord);
  }

  /** Key/value entries of a range, fetched in chunks; stop early by breaking out of the loop. */
  async *entries(space: Space, range: KeyRange, chunk = CHUNK): AsyncGenerator<[string, string][]> {
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
    const keys = await this.spaces[space].keys({ gte: range.gte, lt: range.lt, reverse: range.reverse ?? false, limit: 1 }).all();
    return keys[0];
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

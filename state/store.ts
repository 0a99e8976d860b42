import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { PROGRAM_STORE_OPTIONS } from './level-options.js';
import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { conflict, forProgram, invalid, notFound } from './errors.js';
import { initialRun, type Intent, type ProgramConfig, type ProgramRecord } from './program.js';
import { checkDependencies, dependantsOf } from './dependencies.js';
import { Mutex } from './mutex.js';

/** The store refused to open; the message says why and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>;
type Sub = AbstractSublevel<Db, string | Buffer | Uint8Array, string, string>;

type BatchOp = { type: 'put'; key: string; value: string; sublevel: Sub } | { type: 'del'; key: string; sublevel: Sub };

/** A write the store performs atomically: records to put and ids to delete. */
export interface Change {
  put: ProgramRecord[];
  del: string[];
}

/** Emitted after every committed write with the ids it touched. */
export type ChangeListener = (ids: string[]) => void;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Desired state: programs keyed by UUID with a unique name index, in LevelDB. Every user intent
 * is one atomic batch across the sublevels; reads are served from an in-memory copy loaded at
 * open. Writes are serialized so that name and dependency checks see a consistent set.
 */
export class ProgramStore {
  private readonly records = new Map<string, ProgramRecord>();
  private readonly names = new Map<string, string>();
  private readonly feed = new EventEmitter();
  private readonly lock = new Mutex();
  private readonly programs: Sub;
  private readonly nameIndex: Sub;
  /** Small key/value area for other durable facts (runtime pids, cron last-fire times). */
  readonly meta: Sub;
  /** This daemon run's number (BootContext.epoch): one more than the last run's. */
  epoch = 0;

  private constructor(private readonly db: Db) {
    this.programs = db.sublevel('programs');
    this.nameIndex = db.sublevel('names');
    this.meta = db.sublevel('meta');
    this.feed.setMaxListeners(0);
  }

  /** Opens (creating if needed) the store under `dataDir/state.db`. */
  static async open(dataDir: string): Promise<ProgramStore> {
    const location = join(dataDir, 'state.db');
    mkdirSync(dataDir, { recursive: true });
    const db = new ClassicLevel<string, string>(location, PROGRAM_STORE_OPTIONS);
    try {
      await db.open();
    } catch (err) {
      throw new StoreOpenError(describeOpenError(location, err));
    }
    return ProgramStore.fromDb(db, location);
  }

  /** Wraps an already open abstract-level database (memory-level in tests). */
  static async fromDb(db: Db, location = 'memory'): Promise<ProgramStore> {
    const store = new ProgramStore(db);
    try {
      await store.load();
    } catch (err) {
      await db.close();
      throw new StoreOpenError(`the state store at ${location} is corrupt (${(err as Error).message}); refusing to start. Restore it from a backup or move it aside.`);
    }
    return store;
  }

  private async load(): Promise<void> {
    this.epoch = (Number(await this.meta.get('boot_epoch')) || 0) + 1;
    await this.meta.put('boot_epoch', String(this.epoch));
    for await (const [id, value] of this.programs.iterator()) {
      const record = JSON.parse(value) as ProgramRecord;
      if (record.id !== id || typeof record.config?.name !== 'string') throw new Error(`record ${id} is malformed`);
      this.records.set(id, record);
      this.names.set(record.config.name, id);
    }
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  onChange(listener: ChangeListener): () => void {
    this.feed.on('change', listener);
    return () => this.feed.off('change', listener);
  }

  list(): ProgramRecord[] {
    return [...this.records.values()];
  }

  get(id: string): ProgramRecord | undefined {
    return this.records.get(id);
  }

  getByName(name: string): ProgramRecord | undefined {
    const id = this.names.get(name);
    return id === undefined ? undefined : this.records.get(id);
  }

  /** Finds a program by UUID or by name (the CLI accepts both). */
  resolve(ref: string): ProgramRecord | undefined {
    return UUID.test(ref) ? (this.records.get(ref.toLowerCase()) ?? this.getByName(ref)) : this.getByName(ref);
  }

  /**
   * Creates programs atomically; all or none. New programs run unless `autostart` is false; for a
   * cron program "running" means its schedule is active (docs/cron.md).
   */
  async create(configs: ProgramConfig[], now = Date.now()): Promise<ProgramRecord[]> {
    return this.lock.run(async () => {
      const seen = new Set<string>();
      for (const config of configs) {
        if (this.names.has(config.name) || seen.has(config.name)) {
          throw conflict(forProgram(config.name, `name: a program named '${config.name}' already exists`));
        }
        seen.add(config.name);
      }
      const records = configs.map((config): ProgramRecord => ({
        id: randomUUID(),
        config,
        intent: { run: initialRun(config), start_seq: 0, restart_seq: 0, force: false },
        revision: 1,
        created_at: now,
        updated_at: now,
      }));
      await this.commitLocked({ put: records, del: [] });
      return records.map((r) => this.records.get(r.id)!);
    });
  }

  /**
   * Replaces the config of one program with `merge(current)`, which validates. An unknown id is
   * a 400 (spec: update of a program that is not found).
   */
  async update(id: string, merge: (current: ProgramConfig) => ProgramConfig, now = Date.now()): Promise<ProgramRecord> {
    return this.lock.run(async () => {
      const current = this.records.get(id);
      if (!current) throw invalid(`id: program '${id}' not found`);
      const config = merge(current.config);
      const owner = this.names.get(config.name);
      if (owner !== undefined && owner !== id) {
        throw conflict(forProgram(config.name, `name: a program named '${config.name}' already exists`));
      }
      const record = { ...current, config, revision: current.revision + 1, updated_at: now };
      await this.commitLocked({ put: [record], del: [] });
      return this.records.get(id)!;
    });
  }

  /** Removes programs; refused while a program outside the set depends on one inside it. */
  async remove(ids: string[]): Promise<ProgramRecord[]> {
    return this.lock.run(async () => {
      const removed = ids.map((id) => {
        const record = this.records.get(id);
        if (!record) throw notFound(`program '${id}' not found`);
        return record;
      });
      await this.commitLocked({ put: [], del: removed.map((r) => r.id) });
      return removed;
    });
  }

  /** Rewrites the intent of each program (start/stop/restart requests) in one batch. */
  async setIntents(ids: string[], next: (intent: Intent) => Intent, now = Date.now()): Promise<ProgramRecord[]> {
    return this.lock.run(async () => {
      const records = ids.map((id) => {
        const current = this.records.get(id);
        if (!current) throw notFound(`program '${id}' not found`);
        return { ...current, intent: next(current.intent), revision: current.revision + 1, updated_at: now };
      });
      await this.commitLocked({ put: records, del: [] });
      return records.map((r) => this.records.get(r.id)!);
    });
  }

  /** Commits a prepared change (stack apply) after the same checks as single writes. */
  async commit(change: Change): Promise<void> {
    await this.lock.run(() => this.commitLocked(change));
  }

  private async commitLocked(change: Change): Promise<void> {
    this.checkResultingSet(change);
    // The array form of batch: one call into LevelDB, several times cheaper than a chained batch.
    const ops: BatchOp[] = [];
    for (const id of change.del) {
      const old = this.records.get(id);
      if (!old) continue;
      ops.push({ type: 'del', key: id, sublevel: this.programs }, { type: 'del', key: old.config.name, sublevel: this.nameIndex });
    }
    // A new or rewritten intent belongs to this daemon run (state/boot.ts).
    change.put = change.put.map((r) => (r.intent.epoch !== this.epoch && r.intent !== this.records.get(r.id)?.intent ? { ...r, intent: { ...r.intent, epoch: this.epoch } } : r));
    for (const record of change.put) {
      const old = this.records.get(record.id);
      if (old && old.config.name !== record.config.name) ops.push({ type: 'del', key: old.config.name, sublevel: this.nameIndex });
      ops.push(
        { type: 'put', key: record.id, value: JSON.stringify(record), sublevel: this.programs },
        { type: 'put', key: record.config.name, value: record.id, sublevel: this.nameIndex },
      );
    }
    await this.db.batch(ops as never); // abstract-level types sublevel ops per sublevel type; these are all string/string
    for (const id of change.del) {
      const old = this.records.get(id);
      if (old) this.names.delete(old.config.name);
      this.records.delete(id);
    }
    for (const record of change.put) {
      const old = this.records.get(record.id);
      if (old && this.names.get(old.config.name) === record.id) this.names.delete(old.config.name);
      this.records.set(record.id, record);
      this.names.set(record.config.name, record.id);
    }
    this.feed.emit('change', [...change.del, ...change.put.map((r) => r.id)]);
  }

  /** Name uniqueness, dependency names and cycles, and removal of depended-on programs. */
  private checkResultingSet(change: Change): void {
    const next = new Map(this.records);
    for (const id of change.del) next.delete(id);
    for (const record of change.put) next.set(record.id, record);
    const configs = [...next.values()].map((r) => r.config);
    // Names stay unique whatever path wrote them (a stack planned from a snapshot included).
    const owners = new Map<string, string>();
    for (const r of next.values()) {
      const other = owners.get(r.config.name);
      if (other !== undefined) throw conflict(forProgram(r.config.name, `name: a program named '${r.config.name}' already exists`));
      owners.set(r.config.name, r.id);
    }
    const changedNames = new Set(change.put.filter((r) => this.configChanged(r)).map((r) => r.config.name));
    if (changedNames.size > 0) checkDependencies(configs, changedNames);
    const nextNames = new Set(configs.map((c) => c.name));
    const vanishing = new Set([...this.names.keys()].filter((name) => !nextNames.has(name)));
    for (const [dep, users] of dependantsOf(configs, vanishing)) {
      const list = users.map((u) => `'${u}'`).join(', ');
      throw invalid(forProgram(dep, `cannot remove or rename: required by ${list} (depends_on); change them in the same batch`));
    }
  }

  private configChanged(record: ProgramRecord): boolean {
    const old = this.records.get(record.id);
    return !old || old.config !== record.config;
  }
}

function describeOpenError(location: string, err: unknown): string {
  const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  const detail = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
  if (code === 'LEVEL_LOCKED' || /lock/i.test(detail)) {
    return `the state store at ${location} is locked by another process (is another svcd running with this SVC_ROOT?)`;
  }
  if (code === 'LEVEL_CORRUPTION' || /corrupt/i.test(detail)) {
    return `the state store at ${location} is corrupt (${detail}); refusing to start. Restore it from a backup or move it aside.`;
  }
  return `cannot open the state store at ${location}: ${detail}`;
}

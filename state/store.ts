import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROGRAM_STORE_OPTIONS } from './level-options.js';
import { conflict, forProgram, invalid, notFound } from './errors.js';
import { initialRun, type Intent, type ProgramConfig, type ProgramRecord } from './program.js';
import { checkResultingSet } from './resulting-set.js';
import { Mutex } from './mutex.js';
import type { WriteHealth } from './level/guarded-level.js';
import { openLevel } from './level/open-level.js';
import { OpenFindings, REMEDY } from './open-findings.js';
import { StoreOpenError } from './level/store-errors.js';
import type { QuarantinedRecord } from './quarantine.js';
import { StateDb, type Db } from './state-db.js';
import { ManifestKeeper } from './manifest-keeper.js';
import { HeldWrites } from './held-writes.js';
import { ProgramManifest } from './program-manifest.js';
import { applyChange, WriteView } from './write-view.js';
import { sameConfig } from './same-config.js';
import { storedRecordProblem } from './stored-records.js';
import { systemClock, type Change, type ChangeListener, type MetaArea, type StateStoreReport, type StoreOptions } from './store-types.js';

export { StoreOpenError } from './level/store-errors.js';
export type { Change, ChangeListener, StateStoreReport, StoreOptions } from './store-types.js';

/** A write prepared against a group's view: its change, and its answer once the change is in the view. */
interface Prepared<T> {
  change: Change;
  answer: (after: WriteView) => T;
}

interface Written<T> {
  value: T;
  /** Why a deferrable write is held in memory only (a full disk), or null when it is on disk. */
  deferred: string | null;
}

interface QueuedWrite {
  prepare: (view: WriteView) => Prepared<unknown>;
  /** Stop and boot intents: applied in memory when the disk refuses them. */
  deferrable: boolean;
  resolve: (written: Written<unknown>) => void;
  reject: (err: unknown) => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Desired state: programs keyed by UUID with a unique name index, in LevelDB. Every user intent
 * is one atomic batch across the sublevels, synced to disk before it is acknowledged; reads are
 * served from an in-memory copy loaded (and validated, stored-records.ts) at open. Writes are
 * serialized so that name and dependency checks see a consistent set. A write that cannot be
 * made durable (a full disk) is refused with the reason and changes nothing (guarded-level.ts);
 * only a stop is applied in memory then, and written once the disk has room (docs/operations.md).
 */
export class ProgramStore {
  private readonly records = new Map<string, ProgramRecord>();
  private readonly names = new Map<string, string>();
  private readonly feed = new EventEmitter();
  private readonly lock = new Mutex();
  private readonly queue: QueuedWrite[] = [];
  private draining: Promise<void> | null = null;
  private readonly held = new HeldWrites();
  private readonly sdb: StateDb;
  private readonly manifest: ManifestKeeper;
  private readonly findings: OpenFindings;
  /** Small key/value area for other durable facts (runtime pids, cron last-fire times). */
  readonly meta: MetaArea;
  /** This daemon run's number (BootContext.epoch): one more than the last run's. */
  epoch = 0;

  private constructor(
    db: Db,
    private readonly opts: StoreOptions & { location: string | null; dir: string },
  ) {
    this.sdb = new StateDb(db, opts, (health, err) => this.healthChanged(health, err));
    this.manifest = new ManifestKeeper(opts.location === null ? null : new ProgramManifest(opts.location), opts.dir, opts.log);
    this.findings = new OpenFindings(opts, this.manifest);
    this.meta = this.sdb.meta;
    this.feed.setMaxListeners(0);
  }

  /** Opens (creating if needed) the store under `dataDir/state.db`, checking its write-ahead log first. */
  static async open(dataDir: string, opts: StoreOptions = {}): Promise<ProgramStore> {
    const location = join(dataDir, 'state.db');
    mkdirSync(dataDir, { recursive: true });
    const stamp = new Date((opts.clock ?? systemClock).now()).toISOString().replace(/[:.]/g, '-');
    const { db, report } = await openLevel({ location, options: PROGRAM_STORE_OPTIONS, what: 'the state store', policy: opts.damage ?? 'refuse', stamp, remedy: REMEDY });
    const store = await ProgramStore.fromDb(db, { ...opts, location, dir: dataDir });
    store.findings.walReport(report);
    return store;
  }

  /** Wraps an already open abstract-level database (memory-level in tests). */
  static async fromDb(db: Db, opts: StoreOptions & { location?: string; dir?: string } = {}): Promise<ProgramStore> {
    const location = opts.location ?? null;
    const store = new ProgramStore(db, { ...opts, location, dir: opts.dir ?? location ?? 'memory' });
    try {
      await store.load();
    } catch (err) {
      await store.sdb.close();
      if (err instanceof StoreOpenError) throw err;
      throw new StoreOpenError(`the state store at ${location ?? 'memory'} cannot be read (${(err as Error).message}); refusing to start. Restore it from a backup or move it aside.`);
    }
    return store;
  }

  /**
   * Loads what validates and quarantines the rest (reported by name, never fatal). A program the
   * manifest lists that LevelDB no longer has refuses the open (or, accepted, is reported).
   */
  private async load(): Promise<void> {
    const foreign = await this.sdb.foreignKey();
    if (foreign !== null) {
      throw new StoreOpenError(
        `the state store at ${this.opts.location ?? 'memory'} holds none of svc's records but other keys (the first: ${JSON.stringify(foreign.slice(0, 60))}): it is not svc's state store (an event history, another program's LevelDB?); ` +
          "svcd refuses to start rather than run with no programs and write into it. Point [storage] data_dir at svc's data, or move this folder aside.",
      );
    }
    const now = (this.opts.clock ?? systemClock).now();
    for (const record of await this.sdb.loadPrograms(this.opts.logDir, now, this.opts.log, (present) => this.findings.checkManifest(present))) {
      this.records.set(record.id, record);
      this.names.set(record.config.name, record.id);
    }
    await this.manifest.rewrite(this.records);
    const { epoch, written } = await this.sdb.nextEpoch();
    this.epoch = epoch;
    if (!written) this.held.holdEpoch(epoch);
  }

  /** Flushes intents held in memory (when it can), stops retrying, closes the database. */
  async close(): Promise<void> {
    await this.draining;
    if (!this.held.empty && this.sdb.guard.refusedWith === null) await this.lock.run(() => this.flushHeldLocked());
    await this.manifest.close();
    await this.sdb.close();
  }

  /** Whether writes are taken now, what is held in memory, what was quarantined or lost at open. */
  report(): StateStoreReport {
    return {
      ...this.sdb.guard.health(),
      pending_intents: this.held.intents,
      quarantined: this.sdb.quarantine.list(),
      recovered_at_open: this.findings.describe(),
    };
  }

  isQuarantined(id: string): boolean {
    return this.sdb.quarantine.has(id);
  }

  /** Deletes a quarantined record for good. */
  discardQuarantined(id: string): Promise<QuarantinedRecord> {
    return this.lock.run(() => this.sdb.quarantine.discard(id));
  }

  /**
   * Puts a quarantined record back among the programs when it loads now (this svc reads a field
   * an older one did not, its name or dependencies are free again): the checks of a start, then
   * those of any write. It comes back stopped, whatever it was, so that nothing starts before its
   * owner has looked at it; its id, and so its logs and history, are kept. Written first and
   * then dropped from the quarantine: a crash between the two is tidied at the next start.
   */
  async restoreQuarantined(id: string, now = this.now()): Promise<ProgramRecord> {
    const quarantined = this.sdb.quarantine.get(id);
    if (!quarantined) throw notFound(`no quarantined record '${id}'`);
    const problem = storedRecordProblem(id, quarantined.raw, this.opts.logDir);
    if (problem) throw conflict(`quarantined record ${id}${quarantined.name ? ` (${quarantined.name})` : ''} still cannot be loaded: ${problem}`);
    const stored = JSON.parse(quarantined.raw) as ProgramRecord;
    const record: ProgramRecord = { ...stored, intent: { ...stored.intent, run: 'stopped', force: false }, revision: stored.revision + 1, updated_at: now };
    const { value } = await this.write((view) => {
      if (view.records.has(id)) throw conflict(`a program with id ${id} exists already`);
      if (view.names.has(record.config.name)) throw conflict(forProgram(record.config.name, `name: a program named '${record.config.name}' exists now; rename or remove it first`));
      return { change: { put: [record], del: [] }, answer: (after) => after.records.get(id)! };
    });
    await this.lock.run(() => this.sdb.quarantine.forget(id));
    return value;
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

  /** The store's clock (StoreOptions.clock, injected by the daemon): created_at, updated_at, intent epochs. */
  private now(): number {
    return (this.opts.clock ?? systemClock).now();
  }

  /** Finds a program by UUID or by name (the CLI accepts both). */
  resolve(ref: string): ProgramRecord | undefined {
    return UUID.test(ref) ? (this.records.get(ref.toLowerCase()) ?? this.getByName(ref)) : this.getByName(ref);
  }

  /**
   * Creates programs atomically; all or none. New programs run unless `autostart` is false; a cron
   * program's schedule is active whatever `autostart` says (`initialRun`, docs/cron.md).
   */
  async create(configs: ProgramConfig[], now = this.now()): Promise<ProgramRecord[]> {
    const { value } = await this.write((view) => {
      const seen = new Set<string>();
      for (const config of configs) {
        if (view.names.has(config.name)) throw conflict(forProgram(config.name, `name: a program named '${config.name}' already exists`));
        if (seen.has(config.name)) throw conflict(forProgram(config.name, `name: '${config.name}' is given more than once in this request`));
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
      return { change: { put: records, del: [] }, answer: (after) => records.map((r) => after.records.get(r.id)!) };
    });
    return value;
  }

  /**
   * Replaces the config of one program with `merge(current)`, which validates. An unknown id is
   * a 400 (spec: update of a program that is not found).
   */
  async update(id: string, merge: (current: ProgramConfig) => ProgramConfig, now = this.now()): Promise<ProgramRecord> {
    const { value } = await this.write((view) => {
      const current = view.records.get(id);
      if (!current) throw invalid(`id: program '${id}' not found`);
      const config = merge(current.config);
      const owner = view.names.get(config.name);
      if (owner !== undefined && owner !== id) {
        throw conflict(forProgram(config.name, `name: a program named '${config.name}' already exists`));
      }
      // The same configuration again (a re-sent PUT, a CI step that re-applies): nothing to write.
      if (sameConfig(current.config, config)) return { change: { put: [], del: [] }, answer: () => current };
      const record = { ...current, config, revision: current.revision + 1, updated_at: now };
      return { change: { put: [record], del: [] }, answer: (after) => after.records.get(id)! };
    });
    return value;
  }

  /** Removes programs; refused while a program outside the set depends on one inside it. */
  async remove(ids: string[]): Promise<ProgramRecord[]> {
    const { value } = await this.write((view) => {
      const removed = ids.map((id) => {
        const record = view.records.get(id);
        if (!record) throw notFound(`program '${id}' not found`);
        return record;
      });
      return { change: { put: [], del: removed.map((r) => r.id) }, answer: () => removed };
    });
    return value;
  }

  /** Rewrites the intent of each program (start/stop/restart requests) in one batch. */
  async setIntents(ids: string[], next: (intent: Intent) => Intent, now = this.now()): Promise<ProgramRecord[]> {
    return (await this.write((view) => this.nextIntents(view, ids, next, now))).value;
  }

  /**
   * Like setIntents, but the intents are applied in memory before they are written, so the
   * controllers act on them during the synced write (commitActingFirst), and when the store
   * cannot write (a full disk) they stay in memory and are written as soon as it can. For stop
   * requests, which must never wait for the disk: never for a start, which a crash before the
   * write would leave acted on but not stored. `deferred` is the reason they are not on disk
   * yet, or null when they are.
   */
  async setIntentsOrDefer(ids: string[], next: (intent: Intent) => Intent, now = this.now()): Promise<{ records: ProgramRecord[]; deferred: string | null }> {
    const { value, deferred } = await this.write((view) => this.nextIntents(view, ids, next, now), true);
    return { records: value, deferred };
  }

  private nextIntents(view: WriteView, ids: string[], next: (intent: Intent) => Intent, now: number): Prepared<ProgramRecord[]> {
    const records = ids.map((id) => {
      const current = view.records.get(id);
      if (!current) throw notFound(`program '${id}' not found`);
      return { ...current, intent: next(current.intent), revision: current.revision + 1, updated_at: now };
    });
    return { change: { put: records, del: [] }, answer: (after) => records.map((r) => after.records.get(r.id)!) };
  }

  /** Commits a prepared change (stack apply) after the same checks as single writes. */
  async commit(change: Change): Promise<void> {
    await this.write(() => ({ change, answer: () => undefined }));
  }

  /**
   * Commits the change `plan` computes from the programs as they are when the write is made
   * (after every write queued before it), not from an earlier snapshot that a concurrent stop
   * or create would make stale. `plan` is synchronous and may throw to refuse the write.
   */
  async commitPlanned<T>(plan: (records: ReadonlyMap<string, ProgramRecord>) => { change: Change; value: T }): Promise<T> {
    const { value } = await this.write((view) => {
      const { change, value } = plan(view.records);
      return { change, answer: () => value };
    });
    return value;
  }

  /**
   * Queues a write for the next group commit. Writes that arrive while one is on its way to the
   * disk are committed together, in arrival order, in one synced batch: 16 clients creating one
   * program each cost one fsync per group, not one each, and each still gets its own answer.
   */
  private write<T>(prepare: (view: WriteView) => Prepared<T>, deferrable = false): Promise<Written<T>> {
    return new Promise<Written<T>>((resolve, reject) => {
      this.queue.push({ prepare, deferrable, resolve: resolve as (w: Written<unknown>) => void, reject });
      this.draining ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0);
        await this.lock.run(() => this.commitGroup(group)).catch((err: unknown) => group.forEach((w) => w.reject(err)));
      }
    } finally {
      this.draining = null;
    }
  }

  /** Prepares and checks each write against the group's view; writes what passed in one batch. */
  private async commitGroup(group: QueuedWrite[]): Promise<void> {
    const view = new WriteView(this.records, this.names);
    const accepted: { write: QueuedWrite; change: Change; value: unknown }[] = [];
    for (const write of group) {
      try {
        const prepared = write.prepare(view);
        const change = this.stamped(prepared.change, view.records);
        checkResultingSet(view.records, view.names, change, (r) => view.records.get(r.id)?.config !== r.config);
        view.apply(change);
        accepted.push({ write, change, value: prepared.answer(view) });
      } catch (err) {
        write.reject(err);
      }
    }
    if (accepted.length === 0) return;
    const combined = view.change();
    if (combined.put.length === 0 && combined.del.length === 0) {
      for (const { write, value } of accepted) write.resolve({ value, deferred: null }); // nothing changed: nothing to write or announce
      return;
    }
    if (accepted.every(({ write }) => write.deferrable) && this.intentsOnly(combined)) return this.commitActingFirst(accepted, combined);
    try {
      await this.commitLocked(combined);
    } catch (err) {
      if (accepted.length > 1) {
        // One at a time, as if they had never met: each gets its own answer (a stop alone is held, commitActingFirst).
        for (const { write } of accepted) await this.commitGroup([write]);
        return;
      }
      return accepted[0].write.reject(err);
    }
    for (const { write, value } of accepted) write.resolve({ value, deferred: null });
  }

  /** Whether a change only rewrites existing programs under their names (intents): no name index or manifest line to write. */
  private intentsOnly(change: Change): boolean {
    return change.del.length === 0 && change.put.every((r) => this.records.get(r.id)?.config.name === r.config.name);
  }

  /**
   * Stop intents (the deferrable writes) are acted on while their synced batch is on its way to
   * the disk: applied in memory first, so the controllers send the signals during the fsync, and
   * each write is answered once the batch is on disk. A stop never waits for the disk: a batch
   * that fails is held in memory and written later, as on a full disk, and the answer says so.
   * A crash before the batch lands leaves the old intents on disk with the signals sent: the next
   * svcd judges the programs they ended as exits while it was down (a crash restarts, an expected
   * exit stays Exited; docs/operations.md). The stop was never answered.
   */
  private async commitActingFirst(accepted: { write: QueuedWrite; value: unknown }[], change: Change): Promise<void> {
    this.applyInMemory(change);
    // The signals leave before the batch is encoded: the reconcile passes run in this turn's microtasks.
    await new Promise<void>((resolve) => setImmediate(resolve));
    let deferred: string | null = null;
    try {
      const ops = this.held.ops(this.records, this.sdb, new Set(change.put.map((r) => r.id)));
      for (const record of change.put) ops.push({ type: 'put', key: record.id, value: JSON.stringify(record), sublevel: this.sdb.programs });
      await this.sdb.guard.batch(ops, { sync: true });
      this.held.clear();
      await this.manifest.afterCommit(this.records, []); // a lagging manifest is rewritten with any write
    } catch (err) {
      deferred = err instanceof Error ? err.message : String(err);
      this.held.hold(change.put.map((r) => r.id));
      this.opts.log?.warn('intents applied in memory only; written when the state store can write again', { programs: change.put.map((r) => r.config.name), reason: deferred });
    }
    for (const { write, value } of accepted) write.resolve({ value, deferred });
  }

  /** A new or rewritten intent belongs to this daemon run (state/boot.ts). */
  private stamped(change: Change, current: ReadonlyMap<string, ProgramRecord>): Change {
    const put = change.put.map((r) => (r.intent.epoch !== this.epoch && r.intent !== current.get(r.id)?.intent ? { ...r, intent: { ...r.intent, epoch: this.epoch } } : r));
    return { put, del: change.del };
  }

  /**
   * Writes one stamped change in one synced batch, then applies it in memory. Checked already:
   * commitGroup checked each write against the group's view of these same records, and this
   * change is that view's difference from them.
   */
  private async commitLocked(change: Change): Promise<void> {
    // The array form of batch: one call into LevelDB, several times cheaper than a chained batch.
    // What is held in memory (this run's epoch, intents) rides along with the next write that reaches the disk.
    const ops = this.held.ops(this.records, this.sdb, new Set([...change.del, ...change.put.map((r) => r.id)]));
    for (const id of change.del) {
      const old = this.records.get(id);
      if (!old) continue;
      ops.push({ type: 'del', key: id, sublevel: this.sdb.programs }, { type: 'del', key: old.config.name, sublevel: this.sdb.nameIndex });
    }
    for (const record of change.put) {
      const old = this.records.get(record.id);
      // The name index changes only with the name: an intent write (stop all) is half the ops.
      const named = old?.config.name !== record.config.name;
      if (old && named) ops.push({ type: 'del', key: old.config.name, sublevel: this.sdb.nameIndex });
      ops.push({ type: 'put', key: record.id, value: JSON.stringify(record), sublevel: this.sdb.programs });
      if (named) ops.push({ type: 'put', key: record.config.name, value: record.id, sublevel: this.sdb.nameIndex });
    }
    const added = ManifestKeeper.additions(this.records, change);
    await this.manifest.beforeCommit(this.records, change);
    try {
      // Synced: an acknowledged change survives a power cut too (docs/operations.md).
      await this.sdb.guard.batch(ops, { sync: true });
    } catch (err) {
      this.manifest.markStale();
      throw err;
    }
    this.held.clear();
    this.applyInMemory(change);
    await this.manifest.afterCommit(this.records, added);
  }

  private applyInMemory(change: Change): void {
    const configs = new Map<string, ProgramConfig | null>();
    for (const id of change.del) configs.set(id, this.records.get(id)?.config ?? null);
    for (const r of change.put) if (this.configChanged(r)) configs.set(r.id, this.records.get(r.id)?.config ?? null);
    applyChange(this.records, this.names, change);
    this.feed.emit('change', [...change.del, ...change.put.map((r) => r.id)], configs);
  }

  /** Writes what is held in memory (called when the store can write again). */
  private async flushHeldLocked(): Promise<void> {
    const ops = this.held.ops(this.records, this.sdb);
    if (ops.length > 0) await this.sdb.guard.batch(ops, { sync: true });
    this.held.clear();
    await this.manifest.afterCommit(this.records, []);
    this.opts.log?.info('writes held in memory are now on disk');
  }

  private healthChanged(health: WriteHealth, err?: unknown): void {
    if (!health.writable) {
      this.opts.log?.error('the state store refuses writes', { reason: health.problem, error: err instanceof Error ? err.message : undefined });
      return;
    }
    this.opts.log?.info('the state store takes writes again');
    if (this.held.empty) return;
    this.lock.run(() => this.flushHeldLocked()).catch((e: unknown) => this.opts.log?.warn('held intents not written yet', { error: String(e) }));
  }

  /** An intent write keeps the record's config object: a new one means the config changed. */
  private configChanged(record: ProgramRecord): boolean {
    const old = this.records.get(record.id);
    return !old || old.config !== record.config;
  }
}

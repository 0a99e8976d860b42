import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { GuardedLevel, type WriteHealth } from './level/guarded-level.js';
import { reopenLevel } from './level/reopen.js';
import { hasRoomToReopen } from './level/room.js';
import { StoreWriteError } from './level/store-errors.js';
import type { ProgramRecord } from './program.js';
import { foreignKey } from './level/foreign-key.js';
import { Quarantine } from './quarantine.js';
import { sortStoredRecords } from './stored-records.js';
import { systemClock, type MetaArea, type StoreLog, type StoreOptions } from './store-types.js';

export type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>;
export type Sub = AbstractSublevel<Db, string | Buffer | Uint8Array, string, string>;

/**
 * The state store's LevelDB: its keyspaces (`programs`, `names`, `meta`, `quarantine`) and the
 * guard every write goes through (level/guarded-level.ts).
 */
export class StateDb {
  readonly programs: Sub;
  readonly nameIndex: Sub;
  readonly guard: GuardedLevel;
  readonly quarantine: Quarantine;
  readonly meta: MetaArea;
  private readonly metaSub: Sub;
  private readonly quarantineSub: Sub;

  constructor(
    readonly db: Db,
    opts: StoreOptions & { location: string | null; dir: string },
    onHealth: (health: WriteHealth, err?: unknown) => void,
  ) {
    this.programs = db.sublevel('programs');
    this.nameIndex = db.sublevel('names');
    const meta = (this.metaSub = db.sublevel('meta'));
    const quarantine = (this.quarantineSub = db.sublevel('quarantine'));
    const subs = [this.programs, this.nameIndex, meta, quarantine];
    this.guard = new GuardedLevel(db, {
      what: 'the state store',
      dir: opts.dir,
      clock: opts.clock ?? systemClock,
      reopen: async () => {
        const dropped = await reopenLevel(db, subs, opts.location);
        if (dropped.length > 0) opts.log?.error('the state store dropped bytes while reopening', { dropped });
      },
      hasRoom: () => (opts.location === null ? Promise.resolve(true) : hasRoomToReopen(opts.location)),
      onChange: onHealth,
    });
    this.quarantine = new Quarantine(quarantine, this.programs, this.guard);
    this.meta = {
      batch: (ops) => this.guard.batch(ops.map((op) => ({ ...op, sublevel: meta }))),
      iterator: (range) => meta.iterator(range),
      get: (key) => meta.get(key),
      put: (key, value) => this.guard.batch([{ type: 'put', key, value, sublevel: meta }], { sync: true }),
      whenWritable: () => this.guard.whenWritable(),
    };
  }

  /** The first key of this LevelDB when it holds none of the state store's keyspaces (level/foreign-key.ts), or null. */
  foreignKey(): Promise<string | null> {
    return foreignKey(this.db, [this.programs, this.nameIndex, this.metaSub, this.quarantineSub]);
  }

  /**
   * This daemon run's number (BootContext.epoch): one more than the last run's, recorded at once.
   * On a store that cannot write it stays in memory (`written: false`) and rides with the next write.
   */
  async nextEpoch(): Promise<{ epoch: number; written: boolean }> {
    const epoch = (Number(await this.metaSub.get('boot_epoch')) || 0) + 1;
    try {
      await this.guard.batch([this.epochOp(epoch)], { sync: true });
      return { epoch, written: true };
    } catch (err) {
      if (!(err instanceof StoreWriteError)) throw err;
      return { epoch, written: false };
    }
  }

  epochOp(epoch: number): { type: 'put'; key: string; value: string; sublevel: Sub } {
    return { type: 'put', key: 'boot_epoch', value: String(epoch), sublevel: this.metaSub };
  }

  /**
   * Reads every program record and returns the ones that validate (stored-records.ts). The rest
   * move to the quarantine keyspace and are logged by name; the name index is made to match.
   * `check` sees what was read (the ids of the loaded and rejected records and of those
   * quarantined earlier) before anything is changed, and may refuse by throwing.
   */
  async loadPrograms(logDir: string | undefined, now: number, log?: StoreLog, check?: (present: Set<string>) => Promise<void>): Promise<ProgramRecord[]> {
    const nameIndex = new Map(await this.nameIndex.iterator().all());
    const { records, rejected } = sortStoredRecords(await this.programs.iterator().all(), nameIndex, logDir);
    await this.quarantine.load();
    await check?.(new Set([...records, ...rejected, ...this.quarantine.list()].map((r) => r.id)));
    const owner = new Map(records.map((r) => [r.config.name, r.id]));
    const stale = [...nameIndex].filter(([name, id]) => owner.get(name) !== id).map(([name]) => ({ type: 'del', key: name, sublevel: this.nameIndex }));
    const missing = records.filter((r) => nameIndex.get(r.config.name) !== r.id).map((r) => ({ type: 'put', key: r.config.name, value: r.id, sublevel: this.nameIndex }));
    await this.quarantine.moveAside(rejected, [...stale, ...missing], now);
    for (const r of rejected) log?.error('stored program record quarantined', { program_id: r.id, name: r.name, reason: r.reason });
    // A restore that svcd did not live to finish: the program is back, its quarantined copy goes.
    for (const r of records) if (this.quarantine.get(r.id)?.moved) await this.quarantine.forget(r.id);
    return records;
  }

  async close(): Promise<void> {
    await this.guard.close();
    await this.db.close();
  }
}

import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import { notFound } from './errors.js';
import type { GuardedLevel } from './level/guarded-level.js';
import type { RejectedRecord } from './stored-records.js';

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>;
type Sub = AbstractSublevel<Db, string | Buffer | Uint8Array, string, string>;

/** A program record kept aside at load (stored-records.ts says why), and since when. */
export interface QuarantinedRecord extends RejectedRecord {
  /** Unix ms when it was quarantined. */
  at: number;
  /** False while it still sits among the programs on disk (the move failed; it is found again at the next start). */
  moved: boolean;
}

/**
 * The `quarantine` keyspace of the state store: records svc refused to load, kept with their
 * stored text and the reason, out of the way of the programs. They stay until discarded.
 */
export class Quarantine {
  private readonly records = new Map<string, QuarantinedRecord>();

  constructor(
    private readonly sub: Sub,
    private readonly programs: Sub,
    private readonly guard: GuardedLevel,
  ) {}

  /** Reads the records quarantined at earlier starts. */
  async load(): Promise<void> {
    for await (const [id, text] of this.sub.iterator()) {
      try {
        const r = JSON.parse(text) as QuarantinedRecord;
        this.records.set(id, { id, name: r.name ?? null, reason: String(r.reason), raw: String(r.raw), at: Number(r.at), moved: true });
      } catch {
        this.records.set(id, { id, name: null, reason: 'the quarantined entry itself is unreadable', raw: text, at: 0, moved: true });
      }
    }
  }

  list(): QuarantinedRecord[] {
    return [...this.records.values()].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  get(id: string): QuarantinedRecord | undefined {
    return this.records.get(id);
  }

  /**
   * Drops the quarantined copy of a record that is among the programs again (restored): only
   * the copy in the quarantine keyspace is deleted, never the program.
   */
  async forget(id: string): Promise<void> {
    const record = this.records.get(id);
    if (!record) return;
    if (record.moved) await this.guard.batch([{ type: 'del', key: id, sublevel: this.sub }], { sync: true });
    this.records.delete(id);
  }

  /**
   * Moves rejected records out of the programs keyspace in one batch, with `cleanup` (stale
   * name index entries). When the store cannot write, they are quarantined in memory only.
   */
  async moveAside(rejected: RejectedRecord[], cleanup: unknown[], now: number): Promise<void> {
    const entries = rejected.map((r): QuarantinedRecord => ({ ...r, at: now, moved: false }));
    for (const e of entries) this.records.set(e.id, e);
    if (entries.length === 0 && cleanup.length === 0) return;
    const ops = entries.flatMap((e) => [
      { type: 'del', key: e.id, sublevel: this.programs },
      { type: 'put', key: e.id, value: JSON.stringify({ name: e.name, reason: e.reason, raw: e.raw, at: e.at }), sublevel: this.sub },
    ]);
    try {
      await this.guard.batch([...ops, ...cleanup], { sync: true });
      for (const e of entries) e.moved = true;
    } catch (err) {
      if (this.guard.refusedWith === null) throw err;
    }
  }

  /** Deletes a quarantined record for good (the user re-created the program, or gave it up). */
  async discard(id: string): Promise<QuarantinedRecord> {
    const record = this.records.get(id);
    if (!record) throw notFound(`no quarantined record '${id}'`);
    await this.guard.batch([{ type: 'del', key: id, sublevel: record.moved ? this.sub : this.programs }], { sync: true });
    this.records.delete(id);
    return record;
  }
}

import type { ProgramRecord } from './program.js';
import type { StateDb } from './state-db.js';

/**
 * What the store applied in memory but could not write yet (the disk was full): stop intents
 * (ProgramStore.setIntentsOrDefer) and this run's epoch. It rides along with the next write that
 * reaches the disk, or is written on its own when the store takes writes again.
 */
export class HeldWrites {
  private readonly ids = new Set<string>();
  private epoch: number | null = null;

  hold(ids: Iterable<string>): void {
    for (const id of ids) this.ids.add(id);
  }

  holdEpoch(epoch: number): void {
    this.epoch = epoch;
  }

  /** Programs whose intent is held. */
  get intents(): number {
    return this.ids.size;
  }

  get empty(): boolean {
    return this.ids.size === 0 && this.epoch === null;
  }

  /** The puts that write what is held, taking each record as it is in memory now; ids in `skip` are written by the caller. */
  ops(records: Map<string, ProgramRecord>, sdb: StateDb, skip = new Set<string>()): unknown[] {
    const ops: unknown[] = this.epoch === null ? [] : [sdb.epochOp(this.epoch)];
    for (const id of this.ids) {
      const record = records.get(id);
      if (record && !skip.has(id)) ops.push({ type: 'put', key: id, value: JSON.stringify(record), sublevel: sdb.programs });
    }
    return ops;
  }

  /** Everything held is on disk now. */
  clear(): void {
    this.ids.clear();
    this.epoch = null;
  }
}

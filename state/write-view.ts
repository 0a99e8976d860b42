import { OverlayMap } from './overlay-map.js';
import type { ProgramRecord } from './program.js';
import type { Change } from './store-types.js';

/** What applyChange needs of a map: the store's own Map, or a group's OverlayMap. */
interface Writable<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
  delete(key: K): unknown;
}

/** Applies a change to a record map and its name index (the store's memory, or a group's view). */
export function applyChange(records: Writable<string, ProgramRecord>, names: Writable<string, string>, change: Change): void {
  for (const id of change.del) {
    const old = records.get(id);
    if (old && names.get(old.config.name) === id) names.delete(old.config.name);
    records.delete(id);
  }
  for (const record of change.put) {
    const old = records.get(record.id);
    if (old && names.get(old.config.name) === record.id) names.delete(old.config.name);
    records.set(record.id, record);
    names.set(record.config.name, record.id);
  }
}

/**
 * The programs as one group commit sees them (store.ts): what is committed plus the writes
 * accepted before this one in the same group. Each write is prepared and checked against it, so a
 * group answers exactly as its writes would one after another; only the synced disk write (and
 * the manifest rewrite) is shared.
 */
export class WriteView {
  readonly records: OverlayMap<string, ProgramRecord>;
  readonly names: OverlayMap<string, string>;

  constructor(
    private readonly committed: ReadonlyMap<string, ProgramRecord>,
    names: ReadonlyMap<string, string>,
  ) {
    // Overlays, not copies: a group of one write to a store of 500 programs copied 1,000 entries.
    this.records = new OverlayMap(committed);
    this.names = new OverlayMap(names);
  }

  apply(change: Change): void {
    applyChange(this.records, this.names, change);
  }

  /** The one change that takes the committed programs to this view: what its overlay changed. */
  change(): Change {
    const out: Change = { put: [], del: [] };
    for (const id of this.records.changedKeys()) {
      const record = this.records.get(id);
      if (record) out.put.push(record);
      else if (this.committed.has(id)) out.del.push(id);
    }
    return out;
  }
}

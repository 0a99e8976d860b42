import { padTs } from './keys.js';
import type { EventStore } from './store.js';
import type { EventRecord } from './types.js';

const CHUNK = 512;

/**
 * Deletes every record stamped before `cutoffMs`, oldest first, in batches of `CHUNK` records
 * (each with its index entries); `onRemoved` sees each committed batch. Returns the count.
 * A malformed record goes too (its index entries cannot be known; queries skip those).
 */
export async function pruneBefore(store: EventStore, cutoffMs: number, onRemoved: (records: EventRecord[]) => void): Promise<number> {
  let deleted = 0;
  for await (const entries of store.entries('events', { gte: '', lt: padTs(cutoffMs) }, CHUNK)) {
    const records: EventRecord[] = [];
    const malformed: string[] = [];
    for (const [key, value] of entries) {
      const record = store.parse(key, value);
      if (record) records.push(record);
      else malformed.push(key);
    }
    await store.remove(records, malformed);
    onRemoved(records);
    deleted += records.length;
  }
  return deleted;
}

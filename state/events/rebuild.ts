import type { EventCounters } from './counters.js';
import { idOfIndexKey, seqOf } from './keys.js';
import type { EventStore } from './store.js';
import type { EventType } from './types.js';

/**
 * Rebuilds the running counters from the `by_type` index (keys and short values only, no
 * record is parsed) and returns the highest sequence number in use, or -1 for an empty store.
 */
export async function rebuildCounters(store: EventStore, counters: EventCounters): Promise<number> {
  let maxSeq = -1;
  for await (const entries of store.entries('by_type', { gte: '', lt: '~' }, 4096)) {
    for (const [key, programId] of entries) {
      const cut = key.indexOf('!');
      counters.add(key.slice(0, cut) as EventType, programId === '' ? null : programId);
      const seq = seqOf(idOfIndexKey(key));
      if (seq > maxSeq) maxSeq = seq;
    }
  }
  return maxSeq;
}

import { idOfIndexKey } from './keys.js';
import { matchesQuery } from './filter.js';
import { planScan, type ScanPlan } from './plan-scan.js';
import type { EventQuery } from './query-types.js';
import { comparator, TopK } from './sort.js';
import type { EventStore } from './store.js';
import type { EventRecord } from './types.js';

/** Records of a plan's range in key order, a chunk at a time. */
async function* scanRecords(store: EventStore, plan: ScanPlan, chunk: number): AsyncGenerator<EventRecord[]> {
  for await (const entries of store.entries(plan.space, plan.range, chunk)) {
    if (plan.space === 'events') {
      // A malformed record is skipped (and reported once by the store), never a failed query.
      yield entries.map(([key, value]) => store.parse(key, value)).filter((r): r is EventRecord => r !== null);
      continue;
    }
    const ids = entries.filter(([, value]) => plan.indexValue === undefined || value === plan.indexValue).map(([key]) => idOfIndexKey(key));
    if (ids.length > 0) yield await store.get(ids);
  }
}

/**
 * Runs a history query. Sorted by time, the scan follows key order and stops after
 * `offset + limit` matches; any other sort reads the whole filtered range keeping only the best
 * `offset + limit` rows.
 */
export async function queryEvents(store: EventStore, q: EventQuery): Promise<EventRecord[]> {
  if (q.limit <= 0) return [];
  const plan = planScan(q);
  const wanted = q.offset + q.limit;
  if (q.sort_by !== 'time') {
    const top = new TopK(wanted, comparator(q.sort_by, q.order));
    for await (const records of scanRecords(store, plan, 512)) for (const r of records) if (matchesQuery(r, q)) top.add(r);
    return top.sorted().slice(q.offset, wanted);
  }
  const out: EventRecord[] = [];
  let skip = q.offset;
  for await (const records of scanRecords(store, plan, Math.min(512, Math.max(16, wanted)))) {
    for (const r of records) {
      if (!matchesQuery(r, q)) continue;
      if (skip > 0) skip--;
      else out.push(r);
      if (out.length === q.limit) return out;
    }
  }
  return out;
}

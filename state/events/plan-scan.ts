import { idRange } from './keys.js';
import type { EventQuery } from './query-types.js';
import type { KeyRange, Space } from './store.js';

/** Which keyspace and key range a query reads, narrowest first. */
export interface ScanPlan {
  space: Space;
  range: KeyRange;
  /** For index scans: keep only entries whose index value equals this. */
  indexValue?: string;
}

/**
 * Picks the index for a query (pure). A program filter reads that program's slice of
 * `by_program` (whose values are event types, so `event_type` is checked without a fetch);
 * else an event filter reads `by_type`; else the records themselves. The time bounds become key
 * bounds in all three, and a `time desc` query iterates backwards so it can stop at the limit.
 */
export function planScan(q: EventQuery): ScanPlan {
  const { gte, lt } = idRange(q.from, q.to);
  const reverse = q.sort_by === 'time' && q.order === 'desc';
  if (q.program_id !== undefined) {
    const p = `${q.program_id}!`;
    return { space: 'by_program', range: { gte: p + gte, lt: p + lt, reverse }, indexValue: q.event_type };
  }
  if (q.event_type !== undefined) {
    const t = `${q.event_type}!`;
    return { space: 'by_type', range: { gte: t + gte, lt: t + lt, reverse } };
  }
  return { space: 'events', range: { gte, lt, reverse } };
}

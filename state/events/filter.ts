import type { EventQuery } from './query-types.js';
import type { EventRecord } from './types.js';

/** True when the record passes every filter of the query (pure; indexes only narrow the scan). */
export function matchesQuery(r: EventRecord, q: EventQuery): boolean {
  if (q.program_id !== undefined && r.program_id !== q.program_id) return false;
  if (q.from !== undefined && r.ts < q.from) return false;
  if (q.to !== undefined && r.ts > q.to) return false;
  if (q.event_type !== undefined && r.event !== q.event_type) return false;
  if (q.exit_code !== undefined && r.exit_code !== q.exit_code) return false;
  if (q.q !== undefined && q.q !== '' && !r.msg.toLowerCase().includes(q.q.toLowerCase())) return false;
  return true;
}

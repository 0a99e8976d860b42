import { EVENT_TYPES, type EventRecord } from './types.js';

const TYPES = new Set<string>(EVENT_TYPES);
const isNumberOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));
const isStringOrNull = (v: unknown) => v === null || typeof v === 'string';

/**
 * A stored event record, or null when the stored text is not one (damaged, or written by
 * something else): every field the queries, filters and sorts read has the type they expect.
 */
export function parseEventRecord(text: string, key: string): EventRecord | null {
  let r: Partial<Record<keyof EventRecord, unknown>>;
  try {
    r = JSON.parse(text) as typeof r;
  } catch {
    return null;
  }
  if (r === null || typeof r !== 'object') return null;
  const ok =
    r.id === key &&
    typeof r.ts === 'number' &&
    typeof r.ts_ms === 'number' &&
    typeof r.event === 'string' &&
    TYPES.has(r.event) &&
    typeof r.msg === 'string' &&
    isStringOrNull(r.program_id) &&
    isStringOrNull(r.program_name) &&
    isNumberOrNull(r.exit_code) &&
    isNumberOrNull(r.signal) &&
    isNumberOrNull(r.retry_count) &&
    isNumberOrNull(r.duration_secs);
  return ok ? (r as EventRecord) : null;
}

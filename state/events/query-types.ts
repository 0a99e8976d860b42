import type { EventType } from './types.js';

/** Keys the history can be sorted by; `time` is `(ts_ms, id)`. */
export const SORT_KEYS = ['time', 'event', 'exit_code', 'signal', 'retry_count', 'duration_secs', 'msg'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

/** Rows returned when `limit` is not given. */
export const DEFAULT_LIMIT = 100;
/** The largest `limit` accepted: bounds the memory and time one request may take. */
export const MAX_LIMIT = 1000;
/**
 * The deepest page a sort other than time may ask for: such a sort keeps offset + limit records
 * in memory while it reads every match, and an unbounded offset let any reader make svcd hold the
 * whole history. Time is read in index order, skipping, and takes any offset.
 */
export const MAX_SORTED_OFFSET = 100_000;

/** One history query; every filter is optional and all of them combine (AND). */
export interface EventQuery {
  program_id?: string;
  /** Inclusive lower bound on ts (Unix seconds). */
  from?: number;
  /** Inclusive upper bound on ts (Unix seconds). */
  to?: number;
  event_type?: EventType;
  exit_code?: number;
  /** Case-insensitive substring of msg. */
  q?: string;
  limit: number;
  offset: number;
  sort_by: SortKey;
  order: SortOrder;
}

/** A query with the defaults filled in. */
export function eventQuery(partial: Partial<EventQuery> = {}): EventQuery {
  return { limit: DEFAULT_LIMIT, offset: 0, sort_by: 'time', order: 'asc', ...partial };
}

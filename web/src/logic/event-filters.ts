/** The event history filters (spec, Event history) as a form, and the query string they make. */

export const EVENT_SORT_KEYS = ['time', 'event', 'exit_code', 'signal', 'retry_count', 'duration_secs', 'msg'] as const;
export type EventSortKey = (typeof EVENT_SORT_KEYS)[number];

export interface EventFilters {
  /** `datetime-local` values (local time, `YYYY-MM-DDTHH:MM`); empty = unbounded. */
  from: string;
  to: string;
  event_type: string;
  /** As typed; the daemon answers a non-integer with a 400 naming `exit_code`. */
  exit_code: string;
  q: string;
  /** Whole daemon: a program UUID, or empty for all (events page only). */
  program_id: string;
  sort_by: EventSortKey;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Newest first, a page of 100: what an operator looking at trouble wants first. */
export const DEFAULT_FILTERS: EventFilters = { from: '', to: '', event_type: '', exit_code: '', q: '', program_id: '', sort_by: 'time', order: 'desc', limit: 100, offset: 0 };

/** Unix seconds of a `datetime-local` value read in the browser's time zone; null when empty. */
export function localToUnix(value: string): number | null {
  if (!value.trim()) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : NaN;
}

/** The query string; `to` includes its whole minute (the input has minute precision). */
export function eventQuery(f: EventFilters): string {
  const p = new URLSearchParams();
  const from = localToUnix(f.from);
  const to = localToUnix(f.to);
  // An unreadable date goes to the daemon as typed so its message names the parameter.
  if (from !== null) p.set('from', Number.isNaN(from) ? f.from : String(from));
  if (to !== null) p.set('to', Number.isNaN(to) ? f.to : String(to + 59));
  if (f.event_type) p.set('event_type', f.event_type);
  if (f.exit_code.trim()) p.set('exit_code', f.exit_code.trim());
  if (f.q.trim()) p.set('q', f.q.trim());
  if (f.program_id) p.set('program_id', f.program_id);
  p.set('sort_by', f.sort_by);
  p.set('order', f.order);
  p.set('limit', String(f.limit));
  if (f.offset) p.set('offset', String(f.offset));
  return p.toString();
}

/** Clicking a column: the same key flips the order, another sorts by it (time newest first). */
export function toggleEventSort(f: EventFilters, key: EventSortKey): EventFilters {
  if (f.sort_by === key) return { ...f, order: f.order === 'asc' ? 'desc' : 'asc', offset: 0 };
  return { ...f, sort_by: key, order: key === 'time' ? 'desc' : 'asc', offset: 0 };
}

/**
 * Whether refreshing the page shown keeps its rows in place: the first page, or oldest first by
 * time (new events go after the last page). On a later page of another order each new event
 * shifts every row down, so auto-refresh would repeat or skip events under the reader.
 */
export function refreshesInPlace(f: EventFilters): boolean {
  return f.offset === 0 || (f.sort_by === 'time' && f.order === 'asc');
}

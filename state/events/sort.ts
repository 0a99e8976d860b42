import type { SortKey, SortOrder } from './query-types.js';
import type { EventRecord } from './types.js';

type Value = string | number | null;

const valueOf: Record<Exclude<SortKey, 'time'>, (r: EventRecord) => Value> = {
  event: (r) => r.event,
  exit_code: (r) => r.exit_code,
  signal: (r) => r.signal,
  retry_count: (r) => r.retry_count,
  duration_secs: (r) => r.duration_secs,
  msg: (r) => r.msg,
};

function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1; // null sorts after every value (so first when descending)
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * Order of a sorted query: by the key, then by `(ts_ms, id)` (the id starts with ts_ms). `desc`
 * reverses the whole order, ties included, so pages of asc and desc mirror each other.
 */
export function comparator(key: SortKey, order: SortOrder): (a: EventRecord, b: EventRecord) => number {
  const value = key === 'time' ? null : valueOf[key];
  const sign = order === 'desc' ? -1 : 1;
  return (a, b) => sign * ((value ? compareValues(value(a), value(b)) : 0) || compareValues(a.id, b.id));
}

/**
 * Keeps the first `k` records of a stream in `compare` order without holding the whole stream:
 * memory stays O(k) and time O(n log k) amortised.
 */
export class TopK {
  private items: EventRecord[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: EventRecord, b: EventRecord) => number,
  ) {}

  add(r: EventRecord): void {
    if (this.k === 0) return;
    this.items.push(r);
    if (this.items.length >= 2 * this.k + 64) this.trim();
  }

  sorted(): EventRecord[] {
    this.trim();
    return this.items;
  }

  private trim(): void {
    this.items.sort(this.compare);
    if (this.items.length > this.k) this.items.length = this.k;
  }
}

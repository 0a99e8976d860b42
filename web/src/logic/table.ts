import type { ProgramRow } from '../api/types.js';
import { healthLabel, isAlive, statusRank, statusTone, type StatusTone } from './status.js';

export const SORT_COLUMNS = ['name', 'status', 'pid', 'cpu', 'mem', 'uptime', 'restarts', 'health', 'next', 'source'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface SortOrder {
  column: SortColumn;
  desc: boolean;
}

type Key = (p: ProgramRow) => number | string;

const KEYS: Record<SortColumn, Key> = {
  name: (p) => p.name,
  status: (p) => statusRank(p.status),
  pid: (p) => p.pid ?? -1,
  cpu: (p) => p.cpu_usage,
  mem: (p) => p.mem_usage,
  // An earlier start is a longer uptime; programs without a process sort as the shortest.
  uptime: (p) => (p.started_at === null || !isAlive(p.status) ? -Infinity : -p.started_at),
  restarts: (p) => p.restarts,
  health: (p) => healthLabel(p.status, p.check),
  // Programs without a next run sort after every scheduled one.
  next: (p) => p.next_fire_at ?? Infinity,
  source: (p) => p.source ?? '',
};

/** Sorted copy; ties break by name so rows do not jump between refreshes. */
export function sortRows(rows: readonly ProgramRow[], order: SortOrder): ProgramRow[] {
  const key = KEYS[order.column];
  const dir = order.desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

/** Clicking a column header: the same column flips direction, another starts ascending. */
export function toggleSort(order: SortOrder, column: SortColumn): SortOrder {
  return order.column === column ? { column, desc: !order.desc } : { column, desc: false };
}

/** The status chips above the table: all, or one tone (bad = Fatal/Unhealthy, ...). */
export type ToneFilter = 'all' | StatusTone;

export interface RowFilter {
  /** Free text: matches the name, group or source (any case), or the exact status. */
  text: string;
  tone: ToneFilter;
}

export function matches(p: ProgramRow, f: RowFilter): boolean {
  if (f.tone !== 'all' && statusTone(p.status) !== f.tone) return false;
  const t = f.text.trim().toLowerCase();
  if (!t) return true;
  return p.name.toLowerCase().includes(t) || (p.group_name ?? '').toLowerCase().includes(t) || (p.source ?? '').toLowerCase().includes(t) || p.status.toLowerCase() === t;
}

/** The rows of the table in display order. */
export function visibleRows(rows: readonly ProgramRow[], filter: RowFilter, sort: SortOrder): ProgramRow[] {
  return sortRows(
    rows.filter((p) => matches(p, filter)),
    sort,
  );
}

/** Count of rows per tone, for the chips. */
export function toneCounts(rows: readonly ProgramRow[]): Record<ToneFilter, number> {
  const counts: Record<ToneFilter, number> = { all: rows.length, good: 0, busy: 0, bad: 0, idle: 0 };
  for (const p of rows) counts[statusTone(p.status)]++;
  return counts;
}

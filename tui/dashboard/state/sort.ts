import type { WatchProgram } from '../../../api/wire.js';
import { statusRank } from './status.js';
import { compareNames } from '../../client/compare-names.js';

export const SORT_COLUMNS = ['name', 'status', 'pid', 'uptime', 'restarts', 'cpu', 'mem'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface SortOrder {
  column: SortColumn;
  desc: boolean;
}

type Key = (p: WatchProgram) => number | string;

const KEYS: Record<SortColumn, Key> = {
  name: (p) => p.name,
  status: (p) => statusRank(p.status),
  pid: (p) => p.pid ?? -1,
  // Earlier start = longer uptime; programs without a process sort as the shortest.
  uptime: (p) => (p.started_at === null ? -Infinity : -p.started_at),
  restarts: (p) => p.restarts,
  cpu: (p) => p.cpu_usage,
  mem: (p) => p.mem_usage,
};

/** Sorted copy; ties break by name so rows do not jump between refreshes. */
export function sortPrograms(programs: readonly WatchProgram[], order: SortOrder): WatchProgram[] {
  const key = KEYS[order.column];
  const dir = order.desc ? -1 : 1;
  return [...programs].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return compareNames(a.name, b.name);
  });
}

export function nextSortColumn(column: SortColumn): SortColumn {
  return SORT_COLUMNS[(SORT_COLUMNS.indexOf(column) + 1) % SORT_COLUMNS.length] ?? 'name';
}

import type { WatchProgram } from '../../../api/wire.js';
import { sortPrograms, type SortOrder } from './sort.js';

/** Programs whose name or group contains the filter text, or whose status is it (any case). */
export function filterPrograms(programs: readonly WatchProgram[], filter: string): readonly WatchProgram[] {
  const f = filter.trim().toLowerCase();
  if (!f) return programs;
  return programs.filter((p) => p.name.toLowerCase().includes(f) || (p.group_name ?? '').toLowerCase().includes(f) || p.status.toLowerCase() === f);
}

/** The rows of the table in display order. */
export function visiblePrograms(programs: readonly WatchProgram[], filter: string, sort: SortOrder): WatchProgram[] {
  return sortPrograms(filterPrograms(programs, filter), sort);
}

/** Index of the selected row; the first row when the selection is gone (or -1 when empty). */
export function selectedIndex(rows: readonly WatchProgram[], selectedId: string | null): number {
  if (rows.length === 0) return -1;
  const i = rows.findIndex((p) => p.id === selectedId);
  return i < 0 ? 0 : i;
}

/** First row of the window of `height` rows that shows `index`, moving as little as possible from `top`. */
export function windowTop(top: number, index: number, height: number, total: number): number {
  const h = Math.max(1, height);
  let t = Math.min(Math.max(0, top), Math.max(0, total - h));
  if (index < t) t = index;
  if (index >= t + h) t = index - h + 1;
  return Math.max(0, t);
}

/** The filter in force: the one being typed while the prompt is open, live. */
export function activeFilter(s: { mode: string; filter: string; draft: string }): string {
  return s.mode === 'filter' ? s.draft : s.filter;
}

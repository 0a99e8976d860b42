import type { WatchProgram } from '../../../api/wire.js';
import { shownStatus } from '../../client/shown-status.js';
import { bytes } from '../../client/format.js';
import { isAlive } from '../state/status.js';
import { shortTime, uptime } from './text.js';

/** One table column: its title, width and how a row's cell reads. */
export interface Column {
  title: string;
  width: number;
  align?: 'right';
  cell(p: WatchProgram, now: number): string;
}

function health(p: WatchProgram): string {
  const h = p.health;
  if (h === null) return '-';
  if (h.healthy === null) return 'pending';
  return h.healthy ? 'ok' : `fail×${h.failures}`;
}

/** The narrowest NAME column worth showing before other columns give way. */
const MIN_NAME = 12;
/** The narrowest SOURCE column shown (`stack:we…`); narrower, it is left out. */
const MIN_SOURCE = 10;
/**
 * Columns left out, in this order, while the terminal is too narrow for all of them with a
 * readable name: the pid and the figures first, so that health and the next cron run (what
 * something is wrong with, what happens next) stay in sight.
 */
const DROP_ORDER = ['PID', 'MEM', 'UPTIME', 'RST', 'CPU%'];

/** The table's columns for a terminal `width` wide; name and source share what is left. */
export function columns(width: number): Column[] {
  let fixed: Column[] = [
    { title: 'STATUS', width: 9, cell: (p) => shownStatus(p) },
    { title: 'PID', width: 7, align: 'right', cell: (p) => (p.pid === null ? '-' : String(p.pid)) },
    { title: 'UPTIME', width: 7, align: 'right', cell: (p, now) => (p.started_at && isAlive(p.status) ? uptime((now - p.started_at) / 1000) : '-') },
    { title: 'RST', width: 4, align: 'right', cell: (p) => String(p.restarts) },
    { title: 'CPU%', width: 6, align: 'right', cell: (p) => p.cpu_usage.toFixed(1) },
    { title: 'MEM', width: 9, align: 'right', cell: (p) => (p.mem_usage ? bytes(p.mem_usage) : '-') },
    { title: 'HEALTH', width: 8, cell: health },
    { title: 'NEXT RUN', width: 11, cell: (p) => shortTime(p.next_fire_at) },
  ];
  const usedBy = (cols: Column[]) => 2 + cols.reduce((n, c) => n + c.width + 1, 0);
  for (const title of DROP_ORDER) {
    if (width - usedBy(fixed) - 1 >= MIN_NAME) break;
    fixed = fixed.filter((c) => c.title !== title);
  }
  const free = Math.max(8, width - usedBy(fixed) - 1);
  const name = Math.min(28, Math.max(Math.min(MIN_NAME, free), Math.floor(free * 0.5)));
  const source = free - name - 1;
  // A source cut to a few cells ("stac…") says nothing: the name keeps the room instead.
  if (source < MIN_SOURCE) return [{ title: 'NAME', width: Math.min(28, free), cell: (p) => p.name }, ...fixed];
  return [{ title: 'NAME', width: name, cell: (p) => p.name }, ...fixed, { title: 'SOURCE', width: source, cell: (p) => p.source ?? '-' }];
}

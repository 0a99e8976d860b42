import type { WatchProgram } from '../../../api/wire.js';
import { bytes } from '../../client/format.js';
import { isActive } from '../state/status.js';
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

/** The table's columns for a terminal `width` wide; name and source share what is left. */
export function columns(width: number): Column[] {
  const fixed: Column[] = [
    { title: 'STATUS', width: 9, cell: (p) => p.status },
    { title: 'PID', width: 7, align: 'right', cell: (p) => (p.pid === null ? '-' : String(p.pid)) },
    { title: 'UPTIME', width: 7, align: 'right', cell: (p, now) => (p.started_at && isActive(p.status) ? uptime((now - p.started_at) / 1000) : '-') },
    { title: 'RST', width: 4, align: 'right', cell: (p) => String(p.restarts) },
    { title: 'CPU%', width: 6, align: 'right', cell: (p) => p.cpu_usage.toFixed(1) },
    { title: 'MEM', width: 9, align: 'right', cell: (p) => (p.mem_usage ? bytes(p.mem_usage) : '-') },
    { title: 'HEALTH', width: 8, cell: health },
    { title: 'NEXT RUN', width: 11, cell: (p) => shortTime(p.next_fire_at) },
  ];
  const used = 2 + fixed.reduce((n, c) => n + c.width + 1, 0);
  const free = Math.max(10, width - used - 1);
  const name = Math.min(28, Math.max(8, Math.floor(free * 0.5)));
  return [
    { title: 'NAME', width: name, cell: (p) => p.name },
    ...fixed,
    { title: 'SOURCE', width: Math.max(0, free - name - 1), cell: (p) => p.source ?? '-' },
  ];
}

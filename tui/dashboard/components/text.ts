import type { SystemStats } from '../../../api/wire.js';
import { bytes, duration } from '../../client/format.js';

/** Fits text into exactly `width` cells: cut with an ellipsis or padded with spaces. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return text.padEnd(width);
}

/** HH:MM:SS (UTC) of a Unix-ms time. */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** MM-DD HH:MM (UTC) of a Unix-ms time, or "-". */
export function shortTime(ms: number | null | undefined): string {
  if (!ms) return '-';
  return new Date(ms).toISOString().slice(5, 16).replace('T', ' ');
}

/**
 * Uptime for the table: seconds in the first minute, then whole minutes (`7m`), then as
 * `duration` (`3h12m`, `2d4h`). Past the first minute the text changes once a minute, so an idle
 * table does not redraw every second (`svc list` and `svc info` keep the seconds).
 */
export function uptime(secs: number): string {
  const s = Math.max(0, Math.floor(secs));
  if (s >= 60 && s < 3600) return `${Math.floor(s / 60)}m`;
  return duration(s);
}

/** The host figures of the status line: `cpu 12%  mem 1.2 GiB/7.8 GiB` (`-` without stats). */
export function hostFigures(s: SystemStats | null): string {
  const cpu = s ? `${s.cpu_percent.toFixed(0)}%` : '-';
  const mem = s ? `${bytes(s.memory_used_bytes)}/${bytes(s.memory_total_bytes)}` : '-';
  return `cpu ${cpu}  mem ${mem}`;
}

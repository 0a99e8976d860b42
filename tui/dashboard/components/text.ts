import stringWidth from 'string-width';
import type { SystemStats } from '../../../api/wire.js';
import { bytes, duration } from '../../client/format.js';

const graphemes = new Intl.Segmenter();

/**
 * Fits text into exactly `width` terminal cells: cut with an ellipsis or padded with spaces.
 * Cells, not UTF-16 units: a CJK character or an emoji takes two, and is cut whole. Measured as
 * Ink measures (string-width): a row one cell wider than the terminal wraps onto the next line,
 * and every line below it, the status line first, is drawn one row off.
 */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  // Most cells are plain ASCII: one cell per character.
  const cells = /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
  if (cells <= width) return text + ' '.repeat(width - cells);
  let cut = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    cut += segment;
    used += w;
  }
  return `${cut}…${' '.repeat(width - 1 - used)}`;
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

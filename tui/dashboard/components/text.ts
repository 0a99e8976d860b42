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
  const cut = clip(text, width);
  return cut + ' '.repeat(Math.max(0, width - cells(cut)));
}

/** Colour (SGR) sequences: the only escapes left in text made terminal-safe; they take no cell. */
// eslint-disable-next-line no-control-regex -- the sequences are what is matched
const SGR = /(\x1b\[[0-9:;]*m)/;

/** Terminal cells of text (plain ASCII, the common case, without segmenting it). */
function cells(text: string): number {
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}

/**
 * Text cut to at most `width` terminal cells, with an ellipsis when something was left out;
 * colour sequences are kept. Only what fits is looked at: Ink measures every line it draws on
 * every frame, and a line of 4,000 characters cost that each time.
 */
export function clip(text: string, width: number): string {
  if (width <= 0) return '';
  if (/^[\x20-\x7e]*$/.test(text)) return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
  let out = '';
  let used = 0;
  // What fits in width - 1 cells, with room for the ellipsis; null until the text gets that far.
  let room: string | null = null;
  let coloured = false;
  for (const part of text.split(SGR)) {
    if (SGR.test(part)) {
      out += part;
      coloured = true;
      continue;
    }
    for (const { segment } of graphemes.segment(part)) {
      const w = stringWidth(segment);
      if (room === null && used + w > width - 1) room = out;
      if (used + w > width) return `${room ?? out}…${coloured ? '\x1b[0m' : ''}`;
      out += segment;
      used += w;
    }
  }
  return out;
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

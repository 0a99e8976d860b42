import type { LogLine } from '../api/types.js';

/** A log line with its arrival number (stable React key; what a paused view stops at). */
export interface NumberedLine extends LogLine {
  seq: number;
}

export interface LogBuffer {
  lines: readonly NumberedLine[];
  /** The next line's number. */
  next: number;
}

export const EMPTY_LOG: LogBuffer = { lines: [], next: 0 };

/** Appends (or, for a fresh snapshot, replaces with) lines, keeping at most `cap`. */
export function appendLines(buf: LogBuffer, lines: readonly LogLine[], replace: boolean, cap = 5000): LogBuffer {
  let next = buf.next;
  const added = lines.map((l) => ({ ...l, seq: next++ }));
  const all = replace ? added : [...buf.lines, ...added];
  return { lines: all.length > cap ? all.slice(all.length - cap) : all, next };
}

export interface LogView {
  stdout: boolean;
  stderr: boolean;
  /** Case-insensitive substring; empty shows every line. */
  search: string;
  /** While paused: the first line number not shown (lines that arrived after the pause). */
  pausedAt: number | null;
}

/** The lines to show, and how many arrived while paused (shown on resume). */
export function viewLines(buf: LogBuffer, view: LogView): { lines: NumberedLine[]; held: number } {
  const q = view.search.trim().toLowerCase();
  const shown: NumberedLine[] = [];
  let held = 0;
  for (const l of buf.lines) {
    if (view.pausedAt !== null && l.seq >= view.pausedAt) {
      held++;
      continue;
    }
    if (l.source === 'stdout' ? !view.stdout : !view.stderr) continue;
    if (q && !l.content.toLowerCase().includes(q)) continue;
    shown.push(l);
  }
  return { lines: shown, held };
}

/** Splits a line around the matches of `search` (any case), for highlighting. */
export function highlight(content: string, search: string): { text: string; hit: boolean }[] {
  const q = search.trim().toLowerCase();
  if (!q) return [{ text: content, hit: false }];
  const parts: { text: string; hit: boolean }[] = [];
  const lower = content.toLowerCase();
  let i = 0;
  for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) {
    if (at > i) parts.push({ text: content.slice(i, at), hit: false });
    parts.push({ text: content.slice(at, at + q.length), hit: true });
    i = at + q.length;
  }
  if (i < content.length) parts.push({ text: content.slice(i), hit: false });
  return parts;
}

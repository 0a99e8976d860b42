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

/**
 * Terminal control sequences (colours, cursor moves: CSI and OSC) that programs write for a
 * terminal: shown raw they read `␛[31m`; the page shows the text without them.
 */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

export function withoutTerminalControl(text: string): string {
  return text.includes('\x1b') ? text.replace(TERMINAL_CONTROL, '') : text;
}

/** How many lines the view keeps. */
export const LOG_CAP = 5000;

/** Appends (or, for a fresh snapshot, replaces with) lines, keeping at most `cap`. */
export function appendLines(buf: LogBuffer, lines: readonly LogLine[], replace: boolean, cap = LOG_CAP): LogBuffer {
  let next = buf.next;
  const added = lines.map((l) => ({ ...l, content: withoutTerminalControl(l.content), seq: next++ }));
  const all = replace ? added : [...buf.lines, ...added];
  return { lines: all.length > cap ? all.slice(all.length - cap) : all, next };
}

/** Clear view: no lines, numbering goes on (a paused view keeps holding what comes after). */
export function clearLines(buf: LogBuffer): LogBuffer {
  return { lines: [], next: buf.next };
}

export interface LogView {
  stdout: boolean;
  stderr: boolean;
  /** Case-insensitive substring; empty shows every line. */
  search: string;
  /**
   * While paused: the buffer as it was at the pause, shown instead of `buf` (so a reconnect's
   * snapshot, which replaces `buf`, does not empty a paused view).
   */
  paused: LogBuffer | null;
}

/** The lines to show, and how many arrived while paused (shown on resume). */
export function viewLines(buf: LogBuffer, view: LogView): { lines: NumberedLine[]; held: number } {
  const q = view.search.trim().toLowerCase();
  const shown: NumberedLine[] = [];
  const since = view.paused?.next;
  const held = since === undefined ? 0 : buf.lines.filter((l) => l.seq >= since).length;
  for (const l of (view.paused ?? buf).lines) {
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

import type { StackFormat } from './stack-format.js';

/** A place in the stack text: 1-based line and column. */
export interface TextPlace {
  line: number;
  column: number;
}

/** A daemon message cut into its text and the places in the stack text it names. */
export type ErrorPart = string | TextPlace;

/**
 * The name svcd gives the text of `PUT /api/v1/stack` in its TOML and YAML positions
 * (api/routes/stack.ts): the file named by a `stack:<file>.<ext>` source, else `stack.<format>`.
 */
export function stackFileLabel(source: string, format: StackFormat): string {
  return /^stack:.+\.(json|toml|ya?ml)$/i.test(source) ? source.slice('stack:'.length) : `stack.${format}`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits a message about the stack in the editor at each place it names in that text
 * (`stack.toml:4:5`, `at web.yaml:7:1`, `JSON line 3 column 5`). Pasted text is in no file, so
 * the page shows these as "line 4, column 5" (a link to the place) rather than a file name.
 */
export function stackErrorParts(message: string, fileLabel: string): ErrorPart[] {
  const place = new RegExp(`${escape(fileLabel)}:(\\d+):(\\d+)|JSON line (\\d+) column (\\d+)`, 'g');
  const parts: ErrorPart[] = [];
  let from = 0;
  for (let m = place.exec(message); m; m = place.exec(message)) {
    if (m.index > from) parts.push(message.slice(from, m.index));
    parts.push({ line: Number(m[1] ?? m[3]), column: Number(m[2] ?? m[4]) });
    from = m.index + m[0].length;
  }
  if (from < message.length) parts.push(message.slice(from));
  return parts;
}

/** The offsets of a place's line in `text`: from the place's column to the end of its line. */
export function placeRange(text: string, at: TextPlace): { start: number; end: number } {
  let start = 0;
  for (let line = 1; line < at.line; line++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return { start: text.length, end: text.length };
    start = nl + 1;
  }
  const eol = text.indexOf('\n', start);
  const end = eol < 0 ? text.length : eol;
  return { start: Math.min(start + Math.max(0, at.column - 1), end), end };
}

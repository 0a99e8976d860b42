import type { ReportEntry } from './types.js';

/** Collects report entries for one source file; `line` is resolved by the importer's locator. */
export class Findings {
  readonly entries: ReportEntry[] = [];

  unmapped(file: string, line: number, program: string | null, field: string, message: string): void {
    this.entries.push({ file, line, program, field, kind: 'unmapped', message });
  }

  approximated(file: string, line: number, program: string | null, field: string, message: string): void {
    this.entries.push({ file, line, program, field, kind: 'approximated', message });
  }
}

/**
 * `file:line: program: field: not mapped: why`, on one line whatever the source held: control
 * characters of names and values quoted from it (a newline in a PM2 app name) are written as
 * escapes (`\n`, `\x1b`), so the line stays one report line and one comment line of the stack.
 */
export function formatReportEntry(e: ReportEntry): string {
  const what = e.kind === 'unmapped' ? 'not mapped' : 'approximated';
  return oneLine(`${e.file}:${e.line}: ${e.program ? `${e.program}: ` : ''}${e.field}: ${what}: ${e.message}`);
}

/** Text with its control characters (tab aside) escaped: safe as one line, and in a TOML or YAML comment. */
export function oneLine(text: string): string {
  return text.replace(/(?!\t)\p{Cc}/gu, (ch) => (ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** Report entries sorted by file, then line (stable for entries on the same line). */
export function sortReport(entries: ReportEntry[]): ReportEntry[] {
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.file === b.e.file ? a.e.line - b.e.line || a.i - b.i : a.e.file < b.e.file ? -1 : 1))
    .map(({ e }) => e);
}

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

/** `file:line: program: field: not mapped: why` (one line per entry, in source order). */
export function formatReportEntry(e: ReportEntry): string {
  const what = e.kind === 'unmapped' ? 'not mapped' : 'approximated';
  return `${e.file}:${e.line}: ${e.program ? `${e.program}: ` : ''}${e.field}: ${what}: ${e.message}`;
}

/** Report entries sorted by file, then line (stable for entries on the same line). */
export function sortReport(entries: ReportEntry[]): ReportEntry[] {
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.file === b.e.file ? a.e.line - b.e.line || a.i - b.i : a.e.file < b.e.file ? -1 : 1))
    .map(({ e }) => e);
}

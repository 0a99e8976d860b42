import type { DocumentFormat } from '../document.js';
import { stringifyStack } from '../serialize.js';
import { formatReportEntry, oneLine } from './report.js';
import type { ImportResult } from './types.js';

/**
 * The stack file `svc import` writes: the services in the chosen syntax, preceded (TOML and
 * YAML, which have comments) by a header that names the source and lists the report, so a
 * reviewer of the file sees what was not mapped. JSON carries only the stack.
 */
export function renderImport(result: ImportResult, syntax: DocumentFormat, label: string): string {
  const body = stringifyStack({ prune: false, services: result.services }, syntax);
  if (syntax === 'json') return body;
  const count = result.services.length;
  const header = [`svc stack imported from ${oneLine(label)} (${result.format}) by svc import: ${count} program${count === 1 ? '' : 's'}, source "import:${result.format}".`];
  const unmapped = result.report.filter((e) => e.kind === 'unmapped').length;
  const approximated = result.report.length - unmapped;
  if (result.report.length > 0) {
    header.push(`${unmapped} source field${unmapped === 1 ? '' : 's'} not mapped, ${approximated} approximated:`);
    for (const entry of result.report) header.push(`  ${formatReportEntry(entry)}`);
  } else header.push('Every source field was mapped.');
  return `${header.map((l) => `# ${l}`.trimEnd()).join('\n')}\n\n${body}`;
}

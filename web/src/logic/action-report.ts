import type { ActionType, BatchOutcome } from '../api/types.js';

export interface ActionReport {
  kind: 'ok' | 'error';
  text: string;
}

const DONE: Record<ActionType, string> = { Start: 'started', Stop: 'stopped', Restart: 'restarted', Reload: 'reloaded', Remove: 'removed', Signal: 'signalled' };

/** As many names as the confirmation dialog lists; the rest are counted. */
export const SHOWN = 12;

function some(items: string[], sep = ', '): string {
  const more = items.length - SHOWN;
  return more > 0 ? `${items.slice(0, SHOWN).join(sep)} and ${more} more` : items.join(sep);
}

/**
 * `stopped web, api`; failures name each program and the daemon's reason, and a warning (a stop
 * not yet on a full data disk, docs/operations.md) is shown as the CLI prints it. Long lists
 * name the first SHOWN programs and count the rest, so 500 programs make one line, not a page.
 */
export function reportOf(type: ActionType, results: readonly BatchOutcome[]): ActionReport {
  const failed = results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.error ?? 'failed'}`);
  const ok = results.filter((r) => r.ok).map((r) => r.name);
  const warned = results.filter((r) => r.warning).map((r) => `${r.name}: ${r.warning}`);
  // How a reload was carried out ("no health check: restarted, with downtime"), as the CLI says it.
  const notes = results.filter((r) => r.ok && r.note).map((r) => `${r.name}: ${r.note}`);
  const parts: string[] = [];
  if (ok.length || !failed.length) parts.push(`${DONE[type]} ${some(ok) || 'nothing'}`);
  if (notes.length) parts.push(some(notes, '; '));
  if (failed.length) parts.push(`failed ${some(failed, '; ')}`);
  if (warned.length) parts.push(`warning: ${some(warned, '; ')}`);
  return { kind: failed.length || warned.length ? 'error' : 'ok', text: parts.join('; ') };
}

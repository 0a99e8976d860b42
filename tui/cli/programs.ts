import type { ProgramSummary } from '../../api/wire.js';
import type { ApiClient } from '../client/http.js';
import { routes } from '../client/routes.js';
import { CliError } from './errors.js';
import type { Selection } from './selectors.js';

/**
 * Finds programs by name or UUID; an unknown reference is an error naming it. A name matches a
 * removed program whose process is still stopping (`removed`) only when no stored program has it:
 * `svc rm --force web` then ends that process, and other actions are told why they cannot act.
 */
export async function resolvePrograms(client: ApiClient, refs: string[]): Promise<ProgramSummary[]> {
  const all = await routes.listPrograms(client);
  return refs.map((ref) => {
    const named = all.filter((p) => p.name === ref);
    const found = all.find((p) => p.id === ref.toLowerCase()) ?? named.find((p) => !p.removed) ?? named[0];
    if (!found) throw new CliError(`no program named or with id '${ref}' (see: svc list)`);
    return found;
  });
}

/**
 * The programs of plain references and of `GROUP:NAME` ones (each must be in that group), in
 * that order. The list's `group_name` decides; an older svcd without it in the list is asked for
 * the program's detail.
 */
export async function resolveNamed(client: ApiClient, sel: Pick<Selection, 'refs' | 'grouped'>): Promise<ProgramSummary[]> {
  const all = [...sel.refs, ...sel.grouped.map((g) => g.ref)];
  if (all.length === 0) return [];
  const found = await resolvePrograms(client, all);
  for (const [i, g] of sel.grouped.entries()) {
    const p = found[sel.refs.length + i];
    const group = p.group_name !== undefined ? p.group_name : ((await routes.getProgram(client, p.id)).config.group_name ?? null);
    if (group !== g.group) throw new CliError(`program '${p.name}' is not in group '${g.group}' (its group: ${group ?? 'none'})`);
  }
  return found;
}

/** A group no program is in: most often a misspelt one (supervisorctl: "no such group"). */
export function noProgramInGroups(groups: string[]): CliError {
  return new CliError(`no program is in group ${groups.map((g) => `'${g}'`).join(', nor in group ')}`);
}

import type { ProgramSummary } from '../../api/wire.js';
import type { ApiClient } from '../client/http.js';
import { routes } from '../client/routes.js';
import { CliError } from './errors.js';

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

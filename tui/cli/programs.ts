import type { ProgramSummary } from '../../api/wire.js';
import type { ApiClient } from '../client/http.js';
import { routes } from '../client/routes.js';
import { CliError } from './errors.js';

/** Finds programs by name or UUID; an unknown reference is an error naming it. */
export async function resolvePrograms(client: ApiClient, refs: string[]): Promise<ProgramSummary[]> {
  const all = await routes.listPrograms(client);
  return refs.map((ref) => {
    const found = all.find((p) => p.id === ref.toLowerCase()) ?? all.find((p) => p.name === ref);
    if (!found) throw new CliError(`no program named or with id '${ref}' (see: svc list)`);
    return found;
  });
}

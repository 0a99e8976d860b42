import { ApiClient, CliError } from './client.js';

/** The list item the API returns (spec: Program summary). */
export interface ProgramSummary {
  id: string;
  name: string;
  status: string;
  pid: number | null;
  cpu_usage: number;
  mem_usage: number;
  restarts: number;
  started_at: number | null;
  /** Cron programs only: next firing (Unix ms) and runs in flight. */
  next_fire_at?: number | null;
  cron_running?: number;
}

/** Outcome of an action on one program, as the API reports it. */
export type { ActionOutcome } from '../../operations/actions.js';

export function listPrograms(client: ApiClient): Promise<ProgramSummary[]> {
  return client.get<ProgramSummary[]>('/api/v1/programs');
}

/** Finds programs by name or UUID; an unknown reference is an error naming it. */
export async function resolvePrograms(client: ApiClient, refs: string[]): Promise<ProgramSummary[]> {
  const all = await listPrograms(client);
  return refs.map((ref) => {
    const found = all.find((p) => p.id === ref.toLowerCase()) ?? all.find((p) => p.name === ref);
    if (!found) throw new CliError(`no program named or with id '${ref}' (see: svc list)`);
    return found;
  });
}

import { notFound } from '../state/errors.js';
import type { ProgramRecord } from '../state/program.js';
import type { ProgramStore } from '../state/store.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Said when a path's id is not a UUID at all: a name given instead is the usual mistake. */
export function uuidHint(id: string): string {
  return UUID.test(id) ? '' : ' (the path takes the program UUID, not its name)';
}

/** The program a path's `{id}` names, or a 404 that says so when a name was given for the UUID. */
export function programOfPath(store: Pick<ProgramStore, 'get'>, raw: unknown): ProgramRecord {
  const id = String(raw);
  const record = UUID.test(id) ? store.get(id.toLowerCase()) : undefined;
  if (!record) throw notFound(`program '${id}' not found${uuidHint(id)}`);
  return record;
}

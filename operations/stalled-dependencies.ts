import type { ObservedRegistry } from '../state/observed.js';
import type { ProgramRecord } from '../state/program.js';
import type { ProgramStatus } from '../state/status.js';
import type { ProgramStore } from '../state/store.js';

/** Statuses a program leaves only when someone starts it. */
const DOWN: ReadonlySet<ProgramStatus> = new Set(['Stopped', 'Exited', 'Fatal']);

/**
 * The dependencies of a program waiting to start (`Starting`, held by depends_on) that will not
 * come up by themselves: down (Stopped, Exited, Fatal) with no start or restart of theirs pending,
 * or `Starting` themselves behind such a one. A start held by them is settled until someone starts
 * them, so the start request answers at once, naming them (`svc start web` with db stopped).
 * Returns their names with their status, e.g. `db (Stopped)`; empty when the program is not held
 * or what it waits for is on its way.
 */
export function stalledDependencies(store: Pick<ProgramStore, 'get' | 'getByName'>, observed: Pick<ObservedRegistry, 'get'>, id: string): string[] {
  const stalled: string[] = [];
  const visit = (programId: string, seen: Set<string>): boolean => {
    const o = observed.get(programId);
    if (o.status !== 'Starting' || !o.detail?.startsWith('waiting for ')) return false;
    let held = false;
    for (const name of store.get(programId)?.config.depends_on ?? []) {
      const dep = store.getByName(name);
      if (!dep || seen.has(dep.id)) continue;
      const status = observed.get(dep.id).status;
      if (isDown(dep, observed) || visit(dep.id, new Set([...seen, dep.id]))) {
        if (programId === id) stalled.push(`${name} (${status})`);
        held = true;
      }
    }
    return held;
  };
  visit(id, new Set([id]));
  return stalled;
}

/** Down with nothing asked of it that would bring it up. */
function isDown(record: ProgramRecord, observed: Pick<ObservedRegistry, 'get'>): boolean {
  const o = observed.get(record.id);
  if (!DOWN.has(o.status)) return false;
  if (o.applied_start_seq < record.intent.start_seq || o.applied_restart_seq < record.intent.restart_seq) return false;
  // Stopped while its intent says running: the controller has not looked at it yet.
  return o.status !== 'Stopped' || record.intent.run === 'stopped';
}

import type { ObservedRegistry } from '../state/observed.js';
import type { ProgramStore } from '../state/store.js';
import { DependantsIndex } from '../state/dependency-gate.js';

/**
 * Level-triggered links between controllers through observed state: when a program's pid or
 * status changes, its health controller key is woken, and so are the process keys of the
 * programs that depend on it (their depends_on gate may have opened).
 */
export function watchForDependants(store: ProgramStore, observed: ObservedRegistry, wake: { process: (id: string) => void; health: (id: string) => void }): () => void {
  const last = new Map<string, string>();
  const dependants = new DependantsIndex(store);
  return observed.subscribe((id, o) => {
    const fingerprint = o ? `${o.pid}:${o.status}` : 'gone';
    if (last.get(id) === fingerprint) return; // usage samples change nothing here
    const statusChanged = (last.get(id)?.split(':')[1] ?? '') !== (o?.status ?? '');
    if (o) last.set(id, fingerprint);
    else last.delete(id);
    wake.health(id);
    const name = store.get(id)?.config.name;
    if (statusChanged && name) for (const dependant of dependants.of(name)) wake.process(dependant);
  });
}

/**
 * Wakes the process key when another controller publishes or withdraws a restart request
 * (`restart_requests` in observed state; e.g. OTA after a binary swap).
 */
export function watchRestartRequests(observed: ObservedRegistry, wakeProcess: (id: string) => void): () => void {
  const last = new Map<string, string>();
  return observed.subscribe((id, o) => {
    const fingerprint = JSON.stringify(o?.restart_requests ?? {});
    if ((last.get(id) ?? '{}') === fingerprint) return;
    if (o) last.set(id, fingerprint);
    else last.delete(id);
    wakeProcess(id);
  });
}

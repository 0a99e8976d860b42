import type { ObservedRegistry } from './observed.js';
import type { ProgramStore } from './store.js';

/**
 * Whether a program's dependencies are up: a dependency with an enabled health check must be
 * Healthy, any other must have a live process (Running, Healthy or Unhealthy). Returns what the
 * program waits for (shown as its status detail), or null when it may start.
 */
export function dependencyBlocker(store: ProgramStore, observed: ObservedRegistry, id: string): string | null {
  const deps = store.get(id)?.config.depends_on ?? [];
  const waiting: string[] = [];
  for (const name of deps) {
    const dep = store.getByName(name);
    if (!dep) continue; // validation keeps names known; a race with a removal must not wedge the loop
    const status = observed.get(dep.id).status;
    const needsHealthy = dep.config.health_check !== undefined && dep.config.health_check.enabled !== false;
    const up = needsHealthy ? status === 'Healthy' : status === 'Running' || status === 'Healthy' || status === 'Unhealthy';
    if (!up) waiting.push(`${name} (${status}${needsHealthy ? ', needs Healthy' : ''})`);
  }
  return waiting.length > 0 ? `waiting for ${waiting.join(', ')}` : null;
}

/** Ids of programs that list `name` in depends_on. */
export function dependantIds(store: ProgramStore, name: string): string[] {
  return store
    .list()
    .filter((r) => r.config.depends_on?.includes(name))
    .map((r) => r.id);
}

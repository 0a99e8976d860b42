import type { ObservedRegistry } from '../../state/observed.js';
import type { ProgramStore } from '../../state/store.js';

/**
 * Whether a program's dependencies are up: a dependency with an enabled health check must be
 * Healthy; a cron program must have its schedule active (Scheduled, or Running a run); any other
 * must have a live process (Running, Healthy or Unhealthy). Returns what the program waits for
 * (shown as its status detail), or null when it may start.
 */
export function dependencyBlocker(store: ProgramStore, observed: ObservedRegistry, id: string): string | null {
  const deps = store.get(id)?.config.depends_on ?? [];
  const waiting: string[] = [];
  for (const name of deps) {
    const dep = store.getByName(name);
    if (!dep) continue; // validation keeps names known; a race with a removal must not wedge the loop
    const status = observed.get(dep.id).status;
    const needsHealthy = !dep.config.cron && dep.config.health_check !== undefined && dep.config.health_check.enabled !== false;
    const up = dep.config.cron
      ? status === 'Scheduled' || status === 'Running'
      : needsHealthy
        ? status === 'Healthy'
        : status === 'Running' || status === 'Healthy' || status === 'Unhealthy';
    if (!up) waiting.push(`${name} (${status}${needsHealthy ? ', needs Healthy' : ''})`);
  }
  return waiting.length > 0 ? `waiting for ${waiting.join(', ')}` : null;
}

/**
 * Ids of the programs that list a name in depends_on, from an index rebuilt only after the
 * store changes (status changes are frequent; a scan of every program on each was N x N).
 */
export class DependantsIndex {
  private index: Map<string, string[]> | null = null;

  constructor(private readonly store: ProgramStore) {
    store.onChange((_ids, configs) => {
      if (configs.size > 0) this.index = null; // built from names and depends_on only
    });
  }

  of(name: string): string[] {
    this.index ??= this.build();
    return this.index.get(name) ?? [];
  }

  private build(): Map<string, string[]> {
    const index = new Map<string, string[]>();
    for (const r of this.store.list()) for (const dep of r.config.depends_on ?? []) index.set(dep, [...(index.get(dep) ?? []), r.id]);
    return index;
  }
}

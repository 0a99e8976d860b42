import type { ProgramConfig } from './program.js';
import { forProgram, invalid } from './errors.js';

/**
 * Checks depends_on across a whole set of programs: every name must exist in the set and the
 * graph must have no cycle. `changed` limits the unknown-name check to programs being written
 * (so a broken stored program cannot block unrelated writes); cycles are checked everywhere.
 */
export function checkDependencies(all: ProgramConfig[], changed: Set<string>, prefixOf?: (name: string) => string): void {
  const byName = new Map(all.map((c) => [c.name, c]));
  const label = (name: string, msg: string) => (prefixOf ? `${prefixOf(name)}: ${msg}` : forProgram(name, msg));
  for (const config of all) {
    if (!changed.has(config.name)) continue;
    const unknown = (config.depends_on ?? []).filter((dep) => !byName.has(dep));
    if (unknown.length > 0) throw invalid(label(config.name, `depends_on: unknown service(s): ${unknown.join(', ')}`));
  }
  const found = findCycle(byName);
  if (!found) return;
  // Told from the program being written (the one whose depends_on closed the cycle, as a rule).
  const open = found.slice(0, -1);
  const from = Math.max(0, open.findIndex((name) => changed.has(name)));
  const cycle = [...open.slice(from), ...open.slice(0, from), open[from] ?? ''];
  throw invalid(label(cycle[0] ?? '', `depends_on: dependency cycle detected: ${cycle.join(' -> ')}`));
}

/** Returns one cycle as a closed path (a -> b -> a), or null. */
export function findCycle(byName: Map<string, ProgramConfig>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): string[] | null => {
    const seen = state.get(name);
    if (seen === 'done') return null;
    if (seen === 'visiting') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'visiting');
    stack.push(name);
    for (const dep of byName.get(name)?.depends_on ?? []) {
      if (!byName.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of [...byName.keys()].sort()) {
    const found = visit(name);
    if (found) return found;
  }
  return null;
}

/** Names of programs (outside `removing`) that depend on any program in `removing`. */
export function dependantsOf(all: ProgramConfig[], removing: Set<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const config of all) {
    if (removing.has(config.name)) continue;
    for (const dep of config.depends_on ?? []) {
      if (removing.has(dep)) out.set(dep, [...(out.get(dep) ?? []), config.name]);
    }
  }
  return out;
}

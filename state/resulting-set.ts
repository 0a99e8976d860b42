import { checkDependencies, dependantsOf } from './dependencies.js';
import { conflict, forProgram, invalid } from './errors.js';
import type { ProgramRecord } from './program.js';
import type { Change } from './store-types.js';

/**
 * The checks every write passes against the whole set it would leave: unique names, known
 * dependencies without cycles, and no removal (or rename) of a program others depend on.
 * `configChanged` says which written records carry a new config (only those get the
 * unknown-dependency check, so a broken stored program cannot block unrelated writes).
 */
export function checkResultingSet(records: Map<string, ProgramRecord>, change: Change, configChanged: (r: ProgramRecord) => boolean): void {
  const next = new Map(records);
  for (const id of change.del) next.delete(id);
  for (const record of change.put) next.set(record.id, record);
  const configs = [...next.values()].map((r) => r.config);
  // Names stay unique whatever path wrote them (a stack planned from a snapshot included).
  const owners = new Map<string, string>();
  for (const r of next.values()) {
    const other = owners.get(r.config.name);
    if (other !== undefined) throw conflict(forProgram(r.config.name, `name: a program named '${r.config.name}' already exists`));
    owners.set(r.config.name, r.id);
  }
  const changedNames = new Set(change.put.filter(configChanged).map((r) => r.config.name));
  if (changedNames.size > 0) checkDependencies(configs, changedNames);
  const nextNames = new Set(configs.map((c) => c.name));
  const vanishing = new Set([...records.values()].map((r) => r.config.name).filter((name) => !nextNames.has(name)));
  for (const [dep, users] of dependantsOf(configs, vanishing)) {
    const list = users.map((u) => `'${u}'`).join(', ');
    throw invalid(forProgram(dep, `cannot remove or rename: required by ${list} (depends_on); change them in the same batch`));
  }
}

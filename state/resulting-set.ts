import { checkDependencies, dependantsOf } from './dependencies.js';
import { conflict, forProgram, invalid } from './errors.js';
import type { ProgramConfig, ProgramRecord } from './program.js';
import type { Change } from './store-types.js';

/**
 * The checks every write passes against the whole set it would leave: unique names, known
 * dependencies without cycles, and no removal (or rename) of a program others depend on.
 * `configChanged` says which written records carry a new config (only those get the
 * unknown-dependency check, so a broken stored program cannot block unrelated writes).
 *
 * `records` (with `names`, its name -> id index) already passed these checks, so a problem can
 * only involve what the change writes: the check walks from the written records only, O(change)
 * rather than O(programs) per write (500 single-program POSTs were quadratic). When it finds a
 * possible problem, or the change makes a name vanish, the whole set is checked as before, which
 * words the error.
 */
export function checkResultingSet(records: ReadonlyMap<string, ProgramRecord>, names: ReadonlyMap<string, string>, change: Change, configChanged: (r: ProgramRecord) => boolean): void {
  if (!changeIsClean(records, names, change, configChanged)) checkWholeSet(records, change, configChanged);
}

/** True when the change certainly leaves a valid set; false when the whole set must be checked. */
function changeIsClean(records: ReadonlyMap<string, ProgramRecord>, names: ReadonlyMap<string, string>, change: Change, configChanged: (r: ProgramRecord) => boolean): boolean {
  // As the whole-set check applies it: removals first, then writes (a written id stays).
  const written = new Map<string, ProgramRecord>();
  for (const record of change.put) written.set(record.id, record);
  const deleted = new Set(change.del.filter((id) => !written.has(id)));
  const writtenByName = new Map<string, ProgramConfig>();
  for (const record of written.values()) {
    if (writtenByName.has(record.config.name)) return false;
    writtenByName.set(record.config.name, record.config);
  }
  // A committed program keeps its name in the result unless it is removed or rewritten.
  const committedOwner = (name: string): string | undefined => {
    const id = names.get(name);
    return id === undefined || deleted.has(id) || written.has(id) ? undefined : id;
  };
  const lookup = (name: string): ProgramConfig | undefined => {
    const id = committedOwner(name);
    return writtenByName.get(name) ?? (id === undefined ? undefined : records.get(id)?.config);
  };
  for (const record of written.values()) {
    if (committedOwner(record.config.name) !== undefined) return false;
    if (configChanged(record) && (record.config.depends_on ?? []).some((dep) => lookup(dep) === undefined)) return false;
  }
  for (const id of deleted) {
    const old = records.get(id);
    if (old && lookup(old.config.name) === undefined) return false;
  }
  for (const record of written.values()) {
    const old = records.get(record.id);
    if (old && old.config.name !== record.config.name && lookup(old.config.name) === undefined) return false;
  }
  return !reachesCycle([...writtenByName.keys()], lookup);
}

/** Whether a walk along depends_on from `starts` meets a cycle (any new cycle passes through a written program). */
function reachesCycle(starts: string[], lookup: (name: string) => ProgramConfig | undefined): boolean {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): boolean => {
    const seen = state.get(name);
    if (seen !== undefined) return seen === 'visiting';
    state.set(name, 'visiting');
    for (const dep of lookup(name)?.depends_on ?? []) if (lookup(dep) && visit(dep)) return true;
    state.set(name, 'done');
    return false;
  };
  return starts.some(visit);
}

/** The checks over the whole resulting set; each failure throws the error the API answers with (exported for the equivalence test). */
export function checkWholeSet(records: ReadonlyMap<string, ProgramRecord>, change: Change, configChanged: (r: ProgramRecord) => boolean): void {
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

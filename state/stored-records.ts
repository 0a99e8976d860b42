import { findCycle } from './dependencies.js';
import { forProgram } from './errors.js';
import type { ProgramConfig, ProgramRecord } from './program.js';
import { validateCreate } from './schema/validate.js';

/** A stored program record that svc will not load, and why. */
export interface RejectedRecord {
  id: string;
  /** The program name, when the record has a readable one. */
  name: string | null;
  reason: string;
  /** The stored text, unchanged. */
  raw: string;
}

export interface StoredRecords {
  records: ProgramRecord[];
  rejected: RejectedRecord[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Sorts the stored program records into the ones svc loads and the ones it quarantines. A
 * record loads only if it is what svc itself writes: the envelope (id, intent, revision, times)
 * is well formed and the config passes the same validation as an API create, with the same
 * log_dir. Across the set, names are unique (the name index picks the owner) and every
 * depends_on name exists and forms no cycle; the programs that break that are quarantined too,
 * so that nothing starts without the programs it depends on.
 */
export function sortStoredRecords(entries: Iterable<[string, string]>, nameIndex: Map<string, string>, logDir: string | undefined): StoredRecords {
  const rejected: RejectedRecord[] = [];
  const loaded: { record: ProgramRecord; raw: string }[] = [];
  for (const [id, raw] of entries) {
    const parsed = parse(raw);
    const name = typeof (parsed as { config?: { name?: unknown } } | null)?.config?.name === 'string' ? (parsed as ProgramRecord).config.name : null;
    const reason = parsed === undefined ? 'the stored record is not valid JSON' : problemOf(id, parsed, logDir);
    if (reason) rejected.push({ id, name, reason, raw });
    else loaded.push({ record: parsed as ProgramRecord, raw });
  }
  let kept = withUniqueNames(loaded, nameIndex, rejected);
  for (;;) {
    const before = kept.length;
    kept = withKnownDependencies(kept, rejected);
    kept = withoutCycles(kept, rejected);
    if (kept.length === before) break;
  }
  return { records: kept.map((k) => k.record), rejected };
}

/** Why a stored record (its key and text) would be quarantined on its own, or null when it loads. */
export function storedRecordProblem(id: string, raw: string, logDir: string | undefined): string | null {
  const parsed = parse(raw);
  return parsed === undefined ? 'the stored record is not valid JSON' : problemOf(id, parsed, logDir);
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isTime = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** What is wrong with one record on its own, or null. */
function problemOf(id: string, value: unknown, logDir: string | undefined): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'the stored record is not an object';
  const r = value as Partial<Record<keyof ProgramRecord, unknown>>;
  if (!UUID.test(id)) return `the key '${id.slice(0, 80)}' is not a program id`;
  if (r.id !== id) return `id: '${String(r.id).slice(0, 80)}' does not match the key it is stored under`;
  if (r.config === null || typeof r.config !== 'object') return 'config: is required';
  try {
    validateCreate(r.config, { logDir: logDir ?? '/', logDirUnknown: logDir === undefined, stored: true });
  } catch (err) {
    return (err as Error).message;
  }
  const name = (r.config as ProgramConfig).name;
  const intent = r.intent as Partial<ProgramRecord['intent']> | undefined;
  if (!intent || typeof intent !== 'object') return forProgram(name, 'intent: is required');
  if (intent.run !== 'running' && intent.run !== 'stopped') return forProgram(name, "intent.run: must be 'running' or 'stopped'");
  if (!isCount(intent.start_seq) || !isCount(intent.restart_seq)) return forProgram(name, 'intent: start_seq and restart_seq must be non-negative integers');
  if (typeof intent.force !== 'boolean') return forProgram(name, 'intent.force: must be a boolean');
  if (intent.epoch !== undefined && !isCount(intent.epoch)) return forProgram(name, 'intent.epoch: must be a non-negative integer');
  if (!isCount(r.revision) || (r.revision as number) < 1) return forProgram(name, 'revision: must be a positive integer');
  if (!isTime(r.created_at) || !isTime(r.updated_at)) return forProgram(name, 'created_at and updated_at must be times in Unix milliseconds');
  return null;
}

type Loaded = { record: ProgramRecord; raw: string };

/** One owner per name: the one the name index points to, else the oldest record. */
function withUniqueNames(loaded: Loaded[], nameIndex: Map<string, string>, rejected: RejectedRecord[]): Loaded[] {
  const byName = new Map<string, Loaded[]>();
  for (const l of loaded) byName.set(l.record.config.name, [...(byName.get(l.record.config.name) ?? []), l]);
  const kept: Loaded[] = [];
  for (const [name, group] of byName) {
    const owner =
      group.find((l) => nameIndex.get(name) === l.record.id) ??
      [...group].sort((a, b) => a.record.created_at - b.record.created_at || a.record.id.localeCompare(b.record.id))[0];
    kept.push(owner);
    for (const l of group) {
      if (l !== owner) rejected.push(reject(l, `name: another stored program (${owner.record.id}) has the name '${name}'; that one is kept`));
    }
  }
  return kept;
}

function withKnownDependencies(kept: Loaded[], rejected: RejectedRecord[]): Loaded[] {
  const names = new Set(kept.map((l) => l.record.config.name));
  return kept.filter((l) => {
    const unknown = (l.record.config.depends_on ?? []).filter((dep) => !names.has(dep));
    if (unknown.length === 0) return true;
    rejected.push(reject(l, `depends_on: unknown service(s): ${unknown.join(', ')}`));
    return false;
  });
}

/** Every member of a cycle is quarantined: none of them could ever start. */
function withoutCycles(kept: Loaded[], rejected: RejectedRecord[]): Loaded[] {
  let rest = kept;
  for (;;) {
    const cycle = findCycle(new Map(rest.map((l) => [l.record.config.name, l.record.config])));
    if (!cycle) return rest;
    const members = new Set(cycle);
    for (const l of rest) if (members.has(l.record.config.name)) rejected.push(reject(l, `depends_on: dependency cycle detected: ${cycle.join(' -> ')}`));
    rest = rest.filter((l) => !members.has(l.record.config.name));
  }
}

function reject(l: Loaded, message: string): RejectedRecord {
  return { id: l.record.id, name: l.record.config.name, reason: forProgram(l.record.config.name, message), raw: l.raw };
}

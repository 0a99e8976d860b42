import type { ProgramConfig, ProgramRecord } from '../../state/program.js';
import type { PlanEntry } from '../plan.js';
import { sameConfig } from '../../state/same-config.js';

/** One field that differs between the live program and the repository. */
export interface FieldDiff {
  field: string;
  live: unknown;
  repo: unknown;
}

export interface ProgramDiff {
  name: string;
  /** What a sync would do: created (only in the repository), updated, pruned (only live). */
  action: 'created' | 'updated' | 'pruned';
  fields: FieldDiff[];
}

/**
 * Live state against the repository, pure: the dry-run plan's changed entries with, for an
 * update, each differing field and both values. `show` redacts a config for the caller.
 */
export function diffPrograms(entries: PlanEntry[], desired: ProgramConfig[], existing: ProgramRecord[], show: (c: ProgramConfig) => ProgramConfig = (c) => c): ProgramDiff[] {
  const repoByName = new Map(desired.map((c) => [c.name, c]));
  const liveByName = new Map(existing.map((r) => [r.config.name, r.config]));
  const out: ProgramDiff[] = [];
  for (const e of entries) {
    if (e.action === 'unchanged') continue;
    const live = liveByName.get(e.name);
    const repo = repoByName.get(e.name);
    if (e.action !== 'updated' || !live || !repo) {
      out.push({ name: e.name, action: e.action, fields: [] });
      continue;
    }
    const a = show(live) as unknown as Record<string, unknown>;
    const b = show(repo) as unknown as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    const fields = keys.filter((k) => !sameConfig({ v: a[k] }, { v: b[k] })).map((k) => ({ field: k, live: a[k], repo: b[k] }));
    out.push({ name: e.name, action: 'updated', fields });
  }
  return out;
}

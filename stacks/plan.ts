import type { Intent, ProgramConfig, ProgramRecord } from '../state/program.js';
import type { Change } from '../state/store.js';
import type { DesiredService } from './validate-stack.js';
import { sameConfig } from './same-config.js';

/** What an apply does to one program. */
export type PlanAction = 'created' | 'updated' | 'unchanged' | 'pruned';

export interface PlanEntry {
  action: PlanAction;
  name: string;
  /** The program UUID (a new one for `created`). */
  id: string;
  /** `updated` only: process fields changed on a program that should be running, so it restarts. */
  restart: boolean;
}

/** A computed apply: the report (stack order, then prunes by name) and the one atomic write. */
export interface StackPlan {
  entries: PlanEntry[];
  change: Change;
}

export interface PlanOptions {
  /** Remove programs owned by this stack that it no longer lists. */
  prune: boolean;
  /** Sources this stack owns (`stack:<file>` and `include:<file>` of its includes): the prune scope. */
  owned: ReadonlySet<string>;
  now: number;
  newId: () => string;
}

/**
 * Fields whose change alters the spawned process. A stack change to one of them restarts a
 * program that should be running (GitOps: the live process matches the file); other fields
 * (restart policy, probes, priority, source, ...) are picked up without a restart.
 */
export const PROCESS_FIELDS = ['command', 'args', 'cwd', 'user', 'group', 'env', 'env_file', 'stdout_logfile', 'stderr_logfile', 'hooks', 'resource_limits'] as const;

/** Compares the stack with the stored programs by name. Pure: no I/O, ids and time are parameters. */
export function planStack(desired: DesiredService[], existing: ProgramRecord[], opts: PlanOptions): StackPlan {
  const byName = new Map(existing.map((r) => [r.config.name, r]));
  const entries: PlanEntry[] = [];
  const change: Change = { put: [], del: [] };
  for (const { config } of desired) {
    const current = byName.get(config.name);
    if (!current) {
      const record = newRecord(config, opts);
      change.put.push(record);
      entries.push({ action: 'created', name: config.name, id: record.id, restart: false });
    } else if (sameConfig(current.config, config)) {
      entries.push({ action: 'unchanged', name: config.name, id: current.id, restart: false });
    } else {
      const restart = current.intent.run === 'running' && processChanged(current.config, config);
      const intent: Intent = restart ? { ...current.intent, restart_seq: current.intent.restart_seq + 1, force: false } : current.intent;
      change.put.push({ ...current, config, intent, revision: current.revision + 1, updated_at: opts.now });
      entries.push({ action: 'updated', name: config.name, id: current.id, restart });
    }
  }
  if (opts.prune) {
    const listed = new Set(desired.map((d) => d.config.name));
    const doomed = existing
      .filter((r) => !listed.has(r.config.name) && r.config.source !== undefined && opts.owned.has(r.config.source))
      .sort((a, b) => a.config.name.localeCompare(b.config.name));
    for (const r of doomed) {
      change.del.push(r.id);
      entries.push({ action: 'pruned', name: r.config.name, id: r.id, restart: false });
    }
  }
  return { entries, change };
}

/** New programs run unless autostart is false; cron programs wait for their schedule. */
function newRecord(config: ProgramConfig, opts: PlanOptions): ProgramRecord {
  const run = config.autostart === false || config.cron ? 'stopped' : 'running';
  return { id: opts.newId(), config, intent: { run, start_seq: 0, restart_seq: 0, force: false }, revision: 1, created_at: opts.now, updated_at: opts.now };
}

function processChanged(a: ProgramConfig, b: ProgramConfig): boolean {
  return PROCESS_FIELDS.some((field) => !sameConfig({ v: a[field] }, { v: b[field] }));
}

/** The apply log line of one entry: `created web`, `updated api (restart)`, `unchanged db`, `pruned old-job`. */
export function applyLine(e: PlanEntry): string {
  return `${e.action} ${e.name}${e.restart ? ' (restart)' : ''}`;
}

import { initialRun, type Intent, type ProgramConfig, type ProgramRecord } from '../state/program.js';
import type { Change } from '../state/store.js';
import type { DesiredService } from './validate-stack.js';
import { sameConfig } from '../state/same-config.js';

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

/**
 * Which programs the stack does not list an apply removes (docs/stacks.md, Prune): none; every
 * one (`PUT /api/v1/stack` with prune and no `?source=`: the stack is the whole desired state);
 * or only the programs it owns, whose `source` is one of `sources` (a watched file, `svc apply
 * FILE`, a request with `?source=`: `stack:<file>` and `include:<file>` of its includes).
 */
export type PruneScope = { kind: 'none' } | { kind: 'all' } | { kind: 'owned'; sources: ReadonlySet<string> };

export interface PlanOptions {
  prune: PruneScope;
  now: number;
  newId: () => string;
  /**
   * The run intent in force (state/boot.ts `runIntent`): a stored intent from an earlier daemon
   * run is read through the boot rules. Default: the stored intent.
   */
  runIntent?: (record: ProgramRecord) => Intent['run'];
  /** Names never pruned (another file of the watched directory lists them). */
  keep?: ReadonlySet<string>;
}

/**
 * Fields whose change alters the spawned process. A stack change to one of them restarts a
 * program that should be running (GitOps: the live process matches the file); other fields
 * (restart policy, probes, priority, source, resource_limits: written live to the program's
 * cgroup, docs/isolation.md) are picked up without a restart.
 */
export const PROCESS_FIELDS = ['command', 'args', 'cwd', 'user', 'group', 'env', 'env_file', 'stdout_logfile', 'stderr_logfile', 'hooks'] as const;

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
      // Judged on the intent in force: after a boot, a stored "stopped" of an autostart program
      // runs, and a stored "running" of an autostart = false program does not (and must not be
      // revived by the restart request, which the store stamps as this run's intent).
      const run = opts.runIntent?.(current) ?? current.intent.run;
      const restart = run === 'running' && processChanged(current.config, config);
      const intent: Intent = restart ? { ...current.intent, run, restart_seq: current.intent.restart_seq + 1, force: false } : current.intent;
      change.put.push({ ...current, config, intent, revision: current.revision + 1, updated_at: opts.now });
      entries.push({ action: 'updated', name: config.name, id: current.id, restart });
    }
  }
  const { prune } = opts;
  if (prune.kind !== 'none') {
    const listed = new Set(desired.map((d) => d.config.name));
    const inScope = (r: ProgramRecord) => prune.kind === 'all' || (r.config.source !== undefined && prune.sources.has(r.config.source));
    const doomed = existing.filter((r) => !listed.has(r.config.name) && !opts.keep?.has(r.config.name) && inScope(r)).sort((a, b) => a.config.name.localeCompare(b.config.name));
    for (const r of doomed) {
      change.del.push(r.id);
      entries.push({ action: 'pruned', name: r.config.name, id: r.id, restart: false });
    }
  }
  return { entries, change };
}

/** New programs run unless autostart is false, as on create; a cron schedule is active whatever autostart says. */
function newRecord(config: ProgramConfig, opts: PlanOptions): ProgramRecord {
  return { id: opts.newId(), config, intent: { run: initialRun(config), start_seq: 0, restart_seq: 0, force: false }, revision: 1, created_at: opts.now, updated_at: opts.now };
}

function processChanged(a: ProgramConfig, b: ProgramConfig): boolean {
  return PROCESS_FIELDS.some((field) => !sameConfig({ v: a[field] }, { v: b[field] }));
}

/** The apply log line of one entry: `created web`, `updated api (restart)`, `unchanged db`, `pruned old-job`. */
export function applyLine(e: PlanEntry): string {
  return `${e.action} ${e.name}${e.restart ? ' (restart)' : ''}`;
}

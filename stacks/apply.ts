import { randomUUID } from 'node:crypto';
import { runIntent, type BootContext } from '../state/boot.js';
import { Mutex } from '../state/mutex.js';
import type { ProgramRecord } from '../state/program.js';
import type { ProgramStore } from '../state/store.js';
import type { LoadedStack } from './load.js';
import { applyLine, planStack, type PlanEntry, type PruneScope, type StackPlan } from './plan.js';
import { checkPlan, planId } from './plan-id.js';
import { checkStackDependencies, validateServices, type DesiredService } from './validate-stack.js';
import { dependantsOf } from '../state/dependencies.js';
import { invalid } from '../state/errors.js';
import type { ProgramConfig } from '../state/program.js';

export interface ApplyRequest {
  stack: LoadedStack;
  /** Source label of the stack (`stack:<file>`, default `stack:api` over HTTP). */
  source: string;
  /** Overrides the stack's own `prune` when given: `true` forces pruning on (CLI `--prune`, `?prune=true`), `false` off (`?prune=false`). */
  prune?: boolean;
  /**
   * Prune every program the stack does not list, not only those of its own source: the request is
   * the whole desired state (`PUT /api/v1/stack` without `?source=`). Default: scoped to the
   * stack's own programs (a watched file, `svc apply FILE`, a request with `?source=`).
   */
  pruneAll?: boolean;
  /** Compute and report only; nothing is written. */
  dryRun?: boolean;
  /** The plan id of the dry run this apply carries out: refused (409, nothing written) when the plan differs now. */
  expectPlan?: string;
  /** More sources the stack owns for its prune: the `include:<file>` sources of its last good apply (an include dropped since). */
  alsoOwned?: string[];
  /** Names the prune leaves alone: another file of the watched directory lists them and takes them over. */
  keep?: Iterable<string>;
}

export interface ApplyResult {
  dryRun: boolean;
  /** One line per program, see `applyLine`. */
  lines: string[];
  entries: PlanEntry[];
  /** The plan's id (stacks/plan-id.ts): a dry run's, to apply exactly that plan with `expectPlan`. */
  plan: string;
}

/**
 * Applies stacks: validate the whole stack, plan against the store, write the plan as one atomic
 * batch. Controllers converge from there (the store's change feed enqueues every touched id).
 * Applies are serialized so the HTTP route and the watched directory never interleave.
 */
export class StackApplier {
  private readonly lock = new Mutex();
  /** Refuses changing a program another owner keeps (a git source without allow_drift); set by the daemon. */
  ownerGuard: ((record: ProgramRecord, change: string, by: string) => void) | null = null;

  constructor(
    private readonly store: ProgramStore,
    private readonly opts: { logDir: string; now: () => number; boot?: BootContext },
  ) {}

  apply(req: ApplyRequest): Promise<ApplyResult> {
    return this.lock.run(async () => {
      const desired = validateServices(req.stack, { logDir: this.opts.logDir, source: req.source });
      const owned = new Set([req.source, ...req.stack.includes.map((f) => `include:${f}`), ...(req.alsoOwned ?? [])]);
      for (const d of desired) if (d.config.source?.startsWith('include:')) owned.add(d.config.source);
      const { boot } = this.opts;
      const prune: PruneScope = !(req.prune ?? req.stack.prune) ? { kind: 'none' } : req.pruneAll ? { kind: 'all' } : { kind: 'owned', sources: owned };
      const keep = new Set(req.keep); // an iterator, read once
      const planAgainst = (existing: ProgramRecord[]): StackPlan => {
        const plan = planStack(desired, existing, {
          prune,
          now: this.opts.now(),
          newId: randomUUID,
          runIntent: boot ? (r) => runIntent(r, boot) : undefined,
          keep,
        });
        if (this.ownerGuard) {
          const byId = new Map(existing.map((r) => [r.id, r]));
          for (const e of plan.entries) {
            const r = byId.get(e.id);
            if (r && r.config.source !== req.source && (e.action === 'updated' || e.action === 'pruned')) this.ownerGuard(r, e.action === 'pruned' ? 'remove' : 'change', req.source);
          }
        }
        const gone = new Set(plan.change.del);
        const staying = existing.filter((r) => !gone.has(r.id)).map((r) => r.config);
        checkStackDependencies(desired, staying);
        // Judged here, not only by the store's commit: a dry run must refuse what the apply would.
        checkPruned(plan.entries, desired, staying);
        return plan;
      };
      const existing = this.store.list();
      let plan = planAgainst(existing);
      const writes = plan.change.put.length + plan.change.del.length;
      let id: string;
      // Planned again when the write is made: a stop, create or update that the API wrote in
      // between is what the change applies to, not a copy of the program from before it. That
      // plan is the one held to the dry run's (its id is computed once per apply: ~1 ms for 500).
      if (!req.dryRun && writes > 0) {
        ({ plan, id } = await this.store.commitPlanned((records) => {
          const planned = planAgainst([...records.values()]);
          const plannedId = planId(planned, records);
          checkPlan(req.expectPlan, plannedId);
          return { change: planned.change, value: { plan: planned, id: plannedId } };
        }));
      } else {
        id = planId(plan, new Map(existing.map((r) => [r.id, r])));
        checkPlan(req.expectPlan, id);
      }
      return { dryRun: req.dryRun === true, lines: plan.entries.map(applyLine), entries: plan.entries, plan: id };
    });
  }

  /** Removes every program owned by a stack source and its includes (a deleted stack file), except the names in `keep`. */
  pruneOwned(source: string, includes: string[], keep?: Iterable<string>): Promise<ApplyResult> {
    return this.apply({ stack: { prune: true, services: [], includes }, source, prune: true, keep });
  }
}

/**
 * A program the apply prunes must not be needed by one that stays (outside the stack: a stack
 * service naming it is an unknown depends_on). Every such program is named, with the source
 * that keeps its dependant, so a file owner knows which stack to change.
 */
function checkPruned(entries: PlanEntry[], desired: DesiredService[], staying: ProgramConfig[]): void {
  const pruned = new Set(entries.filter((e) => e.action === 'pruned').map((e) => e.name));
  if (pruned.size === 0) return;
  const listed = new Set(desired.map((d) => d.config.name));
  const outside = staying.filter((c) => !listed.has(c.name));
  const problems = [...dependantsOf(outside, pruned)].sort(([a], [b]) => a.localeCompare(b)).map(([name, users]) => {
    const by = users.map((u) => {
      const source = outside.find((c) => c.name === u)?.source;
      return `'${u}'${source ? ` (${source})` : ''}`;
    });
    return `program '${name}': cannot prune: required by ${by.join(', ')} (depends_on), which this apply keeps; list '${name}' in the stack, or remove the dependency first`;
  });
  if (problems.length > 0) throw invalid(problems.join('\n'));
}

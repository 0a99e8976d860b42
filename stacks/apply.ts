import { randomUUID } from 'node:crypto';
import { Mutex } from '../state/mutex.js';
import type { ProgramStore } from '../state/store.js';
import type { LoadedStack } from './load.js';
import { applyLine, planStack, type PlanEntry } from './plan.js';
import { checkStackDependencies, validateServices } from './validate-stack.js';

export interface ApplyRequest {
  stack: LoadedStack;
  /** Source label of the stack (`stack:<file>`, default `stack:api` over HTTP). */
  source: string;
  /** Forces pruning on (CLI `--prune`, `?prune=true`); otherwise the stack's own `prune`. */
  prune?: boolean;
  /** Compute and report only; nothing is written. */
  dryRun?: boolean;
}

export interface ApplyResult {
  dryRun: boolean;
  /** One line per program, see `applyLine`. */
  lines: string[];
  entries: PlanEntry[];
}

/**
 * Applies stacks: validate the whole stack, plan against the store, write the plan as one atomic
 * batch. Controllers converge from there (the store's change feed enqueues every touched id).
 * Applies are serialized so the HTTP route and the watched directory never interleave.
 */
export class StackApplier {
  private readonly lock = new Mutex();

  constructor(
    private readonly store: ProgramStore,
    private readonly opts: { logDir: string; now: () => number },
  ) {}

  apply(req: ApplyRequest): Promise<ApplyResult> {
    return this.lock.run(async () => {
      const desired = validateServices(req.stack, { logDir: this.opts.logDir, source: req.source });
      const owned = new Set([req.source, ...req.stack.includes.map((f) => `include:${f}`)]);
      for (const d of desired) if (d.config.source?.startsWith('include:')) owned.add(d.config.source);
      const existing = this.store.list();
      const plan = planStack(desired, existing, {
        prune: req.prune === true || req.stack.prune,
        owned,
        now: this.opts.now(),
        newId: randomUUID,
      });
      const gone = new Set(plan.change.del);
      checkStackDependencies(desired, existing.filter((r) => !gone.has(r.id)).map((r) => r.config));
      const writes = plan.change.put.length + plan.change.del.length;
      if (!req.dryRun && writes > 0) await this.store.commit(plan.change);
      return { dryRun: req.dryRun === true, lines: plan.entries.map(applyLine), entries: plan.entries };
    });
  }

  /** Removes every program owned by a stack source and its includes (a deleted stack file). */
  pruneOwned(source: string, includes: string[]): Promise<ApplyResult> {
    return this.apply({ stack: { prune: true, services: [], includes }, source, prune: true });
  }
}

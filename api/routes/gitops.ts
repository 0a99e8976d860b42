import Router from '@koa/router';
import { invalid, notFound } from '../../state/errors.js';
import type { StackApplier } from '../../stacks/apply.js';
import { diffPrograms } from '../../stacks/git/diff.js';
import { commitInForce } from '../../stacks/git/status.js';
import { validateServices } from '../../stacks/validate-stack.js';
import type { ApiDeps } from '../deps.js';
import { booleanParam } from '../params.js';
import { redactConfig, seesSecrets } from '../redact.js';

/**
 * Git sources (docs/gitops.md): POST /stack/sync[?source=NAME&to=COMMIT&unpin=true] syncs now
 * (a forge's push webhook, CI, `svc sync`), GET /stack/diff?source=NAME shows live state
 * against the repository. Their status is part of GET /stack/status (api/routes/stack.ts).
 */
export function gitopsRouter(deps: ApiDeps, applier: StackApplier): Router {
  const router = new Router();
  const gitops = () => {
    if (!deps.gitops || deps.gitops.status().length === 0) throw notFound('no git sources configured ([[stacks.git]] in conf/svc.toml, docs/gitops.md)');
    return deps.gitops;
  };

  router.post('/stack/sync', async (ctx) => {
    const source = single(ctx.query.source, 'source');
    const to = single(ctx.query.to, 'to');
    const unpin = booleanParam(ctx.query.unpin, 'unpin', false);
    const sources = await gitops().sync(source, { to, unpin });
    ctx.body = { status: sources.some((s) => s.last_error !== null) ? 'error' : 'ok', sources };
  });

  router.get('/stack/diff', async (ctx) => {
    const g = gitops();
    const names = g.status().map((s) => s.name);
    const source = single(ctx.query.source, 'source');
    const chosen = source === undefined ? names : [source];
    const plain = seesSecrets(ctx);
    const out = [];
    for (const name of chosen) {
      const status = g.status().find((s) => s.name === name);
      const applied = status?.applied?.commit ?? null;
      try {
        const { commit, request } = await g.target(name);
        const result = await applier.apply({ ...request, dryRun: true });
        const desired = validateServices(request.stack, { logDir: deps.config.storage.log_dir, source: request.source }).map((d) => d.config);
        const changes = diffPrograms(result.entries, desired, deps.store.list(), plain ? (c) => c : redactConfig);
        out.push({ source: `git:${name}`, commit, applied, in_sync: changes.length === 0, changes, error: null });
      } catch (err) {
        // One source that cannot be compared (nothing fetched, a commit that does not load, a
        // program another source owns) is reported in its entry; the others are still shown.
        if (source !== undefined) throw err;
        const commit = status ? commitInForce(status) : null;
        out.push({ source: `git:${name}`, commit, applied, in_sync: false, changes: [], error: (err as Error).message });
      }
    }
    ctx.body = { sources: out };
  });

  return router;
}

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw invalid(`${name}: given more than once`);
  return value === undefined || value === '' ? undefined : value;
}

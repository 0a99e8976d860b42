import Router from '@koa/router';
import { SvcError } from '../../state/errors.js';
import type { ProgramRecord } from '../../state/program.js';
import { requestOtaRollback } from '../../operations/ota-rollback.js';
import type { ApiDeps } from '../deps.js';
import { programOfPath } from '../program-path.js';
import { seesSecrets } from '../redact.js';
import { redactUrl } from '../../state/redact-url.js';


/** OTA status and the manual rollback intent (docs/ota.md). */
export function otaRouter(deps: ApiDeps): Router {
  const { store, observed } = deps;
  const router = new Router();
  const find = (raw: unknown): ProgramRecord => programOfPath(store, raw);
  // The artifact's source URL as program detail shows it: password and query values redacted below admin.
  const status = (r: ProgramRecord, plain: boolean) => {
    const artifact = r.config.artifact && !plain ? { ...r.config.artifact, source: redactUrl(r.config.artifact.source) } : (r.config.artifact ?? null);
    return { id: r.id, name: r.config.name, artifact, ota: observed.get(r.id).ota ?? null };
  };

  /** Every program with an artifact. */
  router.get('/ota', (ctx) => {
    ctx.body = store.list().filter((r) => r.config.artifact).map((r) => status(r, seesSecrets(ctx)));
  });

  router.get('/programs/:id/ota', (ctx) => {
    ctx.body = status(find(ctx.params.id), seesSecrets(ctx));
  });

  router.post('/programs/:id/ota/rollback', async (ctx) => {
    const outcome = await requestOtaRollback(store, observed, find(ctx.params.id));
    if (!outcome.ok && outcome.ota?.phase === 'idle') throw new SvcError('SVC_CONFLICT', outcome.error ?? 'rollback not done');
    ctx.body = outcome;
  });

  return router;
}

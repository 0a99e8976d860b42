import Router from '@koa/router';
import { notFound, SvcError } from '../../state/errors.js';
import type { ProgramRecord } from '../../state/program.js';
import { requestOtaRollback } from '../../operations/ota-rollback.js';
import type { ApiDeps } from '../deps.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** OTA status and the manual rollback intent (docs/ota.md). */
export function otaRouter(deps: ApiDeps): Router {
  const { store, observed } = deps;
  const router = new Router();
  const find = (raw: unknown): ProgramRecord => {
    const id = String(raw);
    const record = UUID.test(id) ? store.get(id.toLowerCase()) : undefined;
    if (!record) throw notFound(`program '${id}' not found`);
    return record;
  };
  const status = (r: ProgramRecord) => ({ id: r.id, name: r.config.name, artifact: r.config.artifact ?? null, ota: observed.get(r.id).ota ?? null });

  /** Every program with an artifact. */
  router.get('/ota', (ctx) => {
    ctx.body = store.list().filter((r) => r.config.artifact).map(status);
  });

  router.get('/programs/:id/ota', (ctx) => {
    ctx.body = status(find(ctx.params.id));
  });

  router.post('/programs/:id/ota/rollback', async (ctx) => {
    const outcome = await requestOtaRollback(store, observed, find(ctx.params.id));
    if (!outcome.ok && outcome.ota?.phase === 'idle') throw new SvcError('SVC_CONFLICT', outcome.error ?? 'rollback not done');
    ctx.body = outcome;
  });

  return router;
}

import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { seesSecrets } from '../redact.js';
import { REDACTED } from '../../state/redact-url.js';

/** The health of svc's stores (docs/operations.md) and the way out of quarantine. */
export function storageRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get('/system/storage', (ctx) => {
    const state = deps.store.report();
    // A quarantined record's stored text holds its env values: only for roles that see secrets.
    if (!seesSecrets(ctx)) state.quarantined = state.quarantined.map((q) => ({ ...q, raw: REDACTED }));
    ctx.body = { state, events: deps.events.report() };
  });
  router.delete('/system/storage/quarantine/:id', async (ctx) => {
    const record = await deps.store.discardQuarantined(ctx.params.id);
    ctx.body = { status: 'discarded', id: record.id, name: record.name };
  });
  router.post('/system/storage/quarantine/:id/restore', async (ctx) => {
    const record = await deps.store.restoreQuarantined(ctx.params.id);
    ctx.body = { status: 'restored', id: record.id, name: record.config.name };
  });
  return router;
}

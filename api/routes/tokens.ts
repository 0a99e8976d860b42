import Router from '@koa/router';
import type { Context } from 'koa';
import type { TokenService } from '../../plugins/security/token-service.js';
import { principalOf } from '../auth/middleware.js';
import { readJson } from '../body.js';
import { auditDetail } from '../auth/audit.js';

/**
 * Access Token routes of the security plugin (registered only when it is loaded; 404 without
 * it). Permissions come from the route table; the service narrows non-admins to their own token.
 */
export function tokensRouter(tokens: TokenService, maxBody: number): Router {
  const router = new Router({ prefix: '/auth' });
  const id = (ctx: Context) => String(ctx.params.id);

  router.get('/tokens', (ctx) => {
    ctx.body = tokens.list(principalOf(ctx));
  });
  router.post('/tokens', async (ctx) => {
    const { value } = await readJson(ctx, maxBody);
    const created = await tokens.create(principalOf(ctx), value);
    auditDetail(ctx, { token_id: created.id, name: created.name, role: created.role });
    ctx.status = 201;
    ctx.body = { ...created, message: 'store the secret now: it is shown only once' };
  });
  router.post('/tokens/:id/renew', async (ctx) => {
    const renewed = await tokens.renew(principalOf(ctx), id(ctx));
    auditDetail(ctx, { token_id: renewed.id });
    ctx.body = { ...renewed, message: 'the previous secret no longer works; store this one now: it is shown only once' };
  });
  router.delete('/tokens/:id', async (ctx) => {
    const result = await tokens.revoke(principalOf(ctx), id(ctx));
    auditDetail(ctx, { token_id: result.id, secret_reenabled: result.secret_reenabled });
    ctx.body = result;
  });
  router.post('/secret/disable', async (ctx) => {
    ctx.body = await tokens.disableSecret(principalOf(ctx));
  });
  return router;
}

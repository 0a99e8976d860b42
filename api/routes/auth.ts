import Router from '@koa/router';
import type { Context } from 'koa';
import type { Authenticator, Principal } from '../../state/auth/principal.js';
import { parseBearer } from '../auth/bearer.js';
import { principalOf } from '../auth/middleware.js';
import type { AuthStatus, LoginResult, PrincipalView } from '../wire.js';

/** What status and login say about a principal. */
function describe(p: Principal): PrincipalView {
  return { role: p.role, principal: p.kind, ...(p.kind === 'token' ? { token: { id: p.id, name: p.name } } : {}) };
}

/**
 * Auth routes, registered only when core auth (auth_secret) or the security plugin is active
 * (spec: otherwise 404). The credential is a stateless Bearer string, so login only confirms
 * it and logout has nothing to end on the server: clients forget the credential (`svc logout`).
 */
export function authRouter(authenticator: Authenticator, extra: () => Record<string, unknown> = () => ({})): Router {
  const router = new Router({ prefix: '/auth' });
  const plugin = authenticator.mode === 'tokens';
  // The auth middleware has already refused a wrong credential with 401 by the time these run.
  router.post('/login', (ctx) => {
    ctx.body = { status: 'ok', authenticated: true, mode: authenticator.mode, ...describe(principalOf(ctx)) } satisfies LoginResult;
  });
  router.post('/logout', (ctx) => {
    ctx.body = { status: 'ok', message: 'nothing to end on the server: forget the credential on the client' };
  });
  // Exempt from auth: capability discovery for clients deciding whether to ask for a secret.
  router.get('/status', (ctx: Context) => {
    const bearer = parseBearer(ctx.get('authorization'));
    const outcome = bearer === null ? null : authenticator.authenticate(bearer);
    ctx.body = {
      auth_required: true,
      mode: authenticator.mode,
      authenticated: outcome?.ok === true,
      security_plugin: plugin,
      ...(plugin ? extra() : {}),
      ...(outcome?.ok ? describe(outcome.principal) : {}),
    } satisfies AuthStatus;
  });
  return router;
}

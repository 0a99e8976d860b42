import Router from '@koa/router';
import { bearerMatches } from '../auth.js';
import type { AuthStatus, LoginResult } from '../wire.js';

/**
 * Core auth routes, registered only when `auth_secret` is set (spec: otherwise 404). The
 * credential is a stateless Bearer string, so login only confirms it and logout has nothing to
 * end on the server: clients forget the credential (`svc logout`).
 */
export function authRouter(secret: string): Router {
  const router = new Router({ prefix: '/auth' });
  const expected = Buffer.from(secret);
  // The auth gate has already refused a wrong credential with 401 by the time these run.
  router.post('/login', (ctx) => {
    ctx.body = { status: 'ok', authenticated: true, mode: 'secret' } satisfies LoginResult;
  });
  router.post('/logout', (ctx) => {
    ctx.body = { status: 'ok', message: 'nothing to end on the server: forget the credential on the client' };
  });
  // Exempt from auth: capability discovery for clients deciding whether to ask for a secret.
  router.get('/status', (ctx) => {
    ctx.body = { auth_required: true, mode: 'secret', authenticated: bearerMatches(ctx.get('authorization'), expected), security_plugin: false } satisfies AuthStatus;
  });
  return router;
}

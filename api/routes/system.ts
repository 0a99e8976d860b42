import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';

/** Daemon-wide routes: shutdown and (later) stats, license. */
export function systemRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/system/shutdown', (ctx) => {
    ctx.status = 202;
    ctx.body = { status: 'shutting_down', message: 'stopping all programs, then svcd exits' };
    // Answer first, then stop: the client gets its reply before the listener closes.
    setImmediate(deps.requestShutdown);
  });
  return router;
}

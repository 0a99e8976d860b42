import Router from '@koa/router';
import { SvcError } from '../../state/errors.js';
import { describePrincipal } from '../../state/auth/principal.js';
import { principalOf } from '../auth/middleware.js';
import type { ApiDeps } from '../deps.js';
import type { ShutdownAccepted, SystemStats } from '../wire.js';

/** Daemon-wide routes: shutdown, stats and (later) license. */
export function systemRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/system/shutdown', (ctx) => {
    ctx.status = 202;
    ctx.body = { status: 'shutting_down', message: 'stopping all programs, then svcd exits' } satisfies ShutdownAccepted;
    // Answer first, then stop: the client gets its reply (and outer middleware such as the
    // audit record finishes) before the listener closes.
    const cause = `POST /api/v1/system/shutdown from ${ctx.ip || 'the unix socket'}, ${describePrincipal(principalOf(ctx))}`;
    ctx.res.once('close', () => deps.requestShutdown(cause));
  });
  router.get('/system/stats', async (ctx) => {
    // A snapshot at most ~3 s old, shared by every reader; sampled on demand when nobody watched.
    const stats = (await deps.freshSystemStats?.()) ?? deps.systemStats?.() ?? null;
    if (!stats) throw new SvcError('SVC_UNAVAILABLE', 'system stats are not sampled yet; retry in a few seconds');
    ctx.body = stats satisfies SystemStats;
  });
  return router;
}

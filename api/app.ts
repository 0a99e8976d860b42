import Koa from 'koa';
import Router from '@koa/router';
import { coreAuth } from './auth.js';
import type { ApiDeps } from './deps.js';
import { errorMiddleware } from './errors.js';
import { authRouter } from './routes/auth.js';
import { eventsRouter } from './routes/events.js';
import { docsRouter } from './routes/docs.js';
import { metricsRouter } from './routes/metrics.js';
import { programsRouter } from './routes/programs.js';
import { stackRouter } from './routes/stack.js';
import { systemRouter } from './routes/system.js';
import { watchRouter } from './routes/watch.js';
import { webRouter } from './routes/web.js';
import type { Health } from './wire.js';

/** Composes the Koa app: one error middleware, one auth gate, routers under /api/v1. */
export function createApp(deps: ApiDeps): Koa {
  const app = new Koa();
  app.silent = true; // errors are logged by errorMiddleware, not printed by Koa
  if (deps.metrics) app.use(deps.metrics.http.middleware()); // outermost: sees the final status
  app.use(errorMiddleware(deps.log));
  app.use(coreAuth(deps.config.server.auth_secret));

  const root = new Router();
  root.get('/health', (ctx) => {
    ctx.body = { status: 'ok', version: deps.version, uptime_secs: Math.floor(process.uptime()) } satisfies Health;
  });

  const v1 = new Router({ prefix: '/api/v1' });
  const routers = [programsRouter(deps), eventsRouter(deps), stackRouter(deps), systemRouter(deps), watchRouter(deps)];
  if (deps.config.server.auth_secret) routers.push(authRouter(deps.config.server.auth_secret));
  for (const router of routers) v1.use(router.routes(), router.allowedMethods());

  app.use(root.routes());
  app.use(webRouter().routes()); // the dashboard at / and /assets (docs/web.md)
  if (deps.metrics) app.use(metricsRouter(deps.metrics.metrics).routes());
  if (deps.config.server.enable_docs) app.use(docsRouter(deps.version).routes());
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}

import Koa from 'koa';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { coreAuthenticator } from './auth/core.js';
import { auditMiddleware } from './auth/audit.js';
import { authMiddleware } from './auth/middleware.js';
import { browserGuard } from './auth/browser-guard.js';
import type { ApiDeps } from './deps.js';
import { drainUnreadBody } from './drain-body.js';
import { errorMiddleware } from './errors.js';
import { serializeJsonBodies } from './json-body.js';
import { queryCheck } from './query-check.js';
import { auditRouter } from './routes/audit.js';
import { authRouter } from './routes/auth.js';
import { eventsRouter } from './routes/events.js';
import { docsRouter } from './routes/docs.js';
import { licenseRouter } from './routes/license.js';
import { uiRouter } from './routes/ui-extensions.js';
import { featuresOf } from '../plugins/license/features.js';
import { metricsRouter } from './routes/metrics.js';
import { notifyRouter } from './routes/notify.js';
import { otaRouter } from './routes/ota.js';
import { programsRouter } from './routes/programs.js';
import { reactionsRouter } from './routes/reactions.js';
import { logFlushRouter } from './routes/log-flush.js';
import { stackRouter } from './routes/stack.js';
import { systemRouter } from './routes/system.js';
import { storageRouter } from './routes/storage.js';
import { tokensRouter } from './routes/tokens.js';
import { watchRouter } from './routes/watch.js';
import { webRouter } from './routes/web.js';
import { withWebSocket, type WebSocketApp } from './ws/attach.js';
import { noPlugins } from '../plugins/boot/runtime.js';
import type { Health } from './wire.js';

/**
 * Composes the Koa app: one error middleware, one auth middleware (core auth, or the security
 * plugin's Authenticator that replaces it) guarding HTTP and the WebSocket chain alike, routers
 * under /api/v1. Every route's permission is in route-table.ts.
 */
export function createApp(deps: ApiDeps): WebSocketApp {
  const plugins = deps.plugins ?? noPlugins(deps.config.server.auth_secret ? 'secret' : 'open');
  const security = plugins.security;
  const authenticator = security?.tokens ?? coreAuthenticator(deps.config.server.auth_secret);
  const auth = authMiddleware(authenticator) as Middleware;

  const app = withWebSocket(new Koa(), deps.log);
  serializeJsonBodies(app);
  app.silent = true; // errors are logged by errorMiddleware, not printed by Koa
  if (deps.metrics) app.use(deps.metrics.http.middleware()); // outermost: sees the final status
  if (security) {
    if (!deps.auditRecorder) throw new Error('createApp: the security plugin needs deps.auditRecorder');
    app.use(auditMiddleware(deps.auditRecorder, () => deps.clock.now()));
  }
  app.use(drainUnreadBody(deps.config.server.max_body_bytes));
  app.use(errorMiddleware(deps.log));
  if (authenticator.mode === 'open') {
    // Open mode's credential is reaching the port, which every web page can: refuse other sites' pages.
    const guard = browserGuard(deps.config.server.host) as Middleware;
    app.use(guard);
    app.ws.use(guard);
  }
  app.use(auth);
  app.use(queryCheck());
  app.ws.use(auth);
  if (deps.logSocket) app.ws.use(deps.logSocket.route);

  const root = new Router();
  root.get('/health', (ctx) => {
    ctx.body = { status: 'ok', version: deps.version, uptime_secs: Math.floor(process.uptime()) } satisfies Health;
  });

  const v1 = new Router({ prefix: '/api/v1' });
  const routers = [programsRouter(deps), logFlushRouter(deps), eventsRouter(deps), stackRouter(deps), systemRouter(deps), watchRouter(deps), licenseRouter(plugins, () => deps.clock.now()), otaRouter(deps), storageRouter(deps), reactionsRouter(deps.reactions, deps.store, deps.config.server.max_body_bytes)];
  if (authenticator.mode !== 'open') {
    routers.push(authRouter(authenticator, () => ({ secret_enabled: !security?.tokens.secretDisabled })));
  }
  if (deps.notify) routers.push(notifyRouter(deps.notify, deps.config.server.max_body_bytes));
  if (security) routers.push(tokensRouter(security.tokens, deps.config.server.max_body_bytes), auditRouter(security.audit));
  // The dashboard's extension panels, while ui.so is loaded (docs/web.md); without it the route is a 404.
  if (plugins.ui) routers.push(uiRouter({ pluginVersion: plugins.ui.version, features: () => featuresOf(plugins.license?.claims.grants ?? []), panels: plugins.ui.panels }));
  for (const router of routers) v1.use(router.routes(), router.allowedMethods());

  app.use(root.routes());
  app.use(webRouter().routes()); // the dashboard at / and /assets (docs/web.md)
  if (deps.metrics) app.use(metricsRouter(deps.metrics.metrics).routes());
  if (deps.config.server.enable_docs) app.use(docsRouter(deps.version).routes());
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}

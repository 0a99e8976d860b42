import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Next } from 'koa';
import websockify, { type App, type WebSocketContext } from 'koa-websocket';
import { SvcError } from '../../state/errors.js';
import { selectProtocol } from '../auth/credential.js';
import type { ErrorLogger } from '../errors.js';
import { CLOSE } from './log-hub.js';

export type WebSocketApp = App;

const CLOSE_FOR: Partial<Record<SvcError['code'], number>> = {
  SVC_UNAUTHORIZED: CLOSE.unauthorized,
  SVC_FORBIDDEN: CLOSE.forbidden,
  SVC_NOT_FOUND: CLOSE.notFound,
};

/**
 * Gives the Koa app a WebSocket middleware chain (koa-websocket). The first link turns errors
 * into close codes (4401, 4403, 4404; 1011 for a bug, which is logged), since a WebSocket has
 * no HTTP status once open; the next links are the same middleware the HTTP routes use.
 */
export function withWebSocket(app: Koa, log: ErrorLogger): WebSocketApp {
  const wsApp = websockify(app);
  wsApp.ws.use(async (ctx: WebSocketContext, next: Next) => {
    try {
      await next();
    } catch (err) {
      const code = err instanceof SvcError ? CLOSE_FOR[err.code] : undefined;
      if (code !== undefined) return ctx.websocket.close(code, (err as Error).message.slice(0, 120));
      log.error('websocket request failed', { path: ctx.path, error: (err as Error).stack ?? String(err) });
      ctx.websocket.close(1011, 'internal error; see the daemon log');
    }
  });
  return wsApp;
}

/**
 * Serves the app's WebSocket chain on `server` (svcd owns its http.Server; koa-websocket's own
 * listen would create another). Browsers offering `svc.v1` get it selected, never a protocol
 * value that carries a credential.
 */
export function attachWebSocket(app: WebSocketApp, server: Server): void {
  app.ws.listen({ server, maxPayload: 4096, handleProtocols: (offered) => selectProtocol(offered) });
}

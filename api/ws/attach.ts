import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Next } from 'koa';
import type { App, WebSocketContext, WebSocketMiddleware, WebSocketServer } from 'koa-websocket';
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
 * The app's WebSocket middleware chain, collected at start-up. koa-websocket and ws (several MiB
 * of svcd's memory) are imported on the first upgrade request (attachWebSocket), not before.
 */
class WebSocketChain implements WebSocketServer {
  readonly middleware: WebSocketMiddleware[] = [];

  use(middleware: WebSocketMiddleware): this {
    this.middleware.push(middleware);
    return this;
  }

  listen(): void {
    throw new TypeError('svcd serves WebSockets through attachWebSocket(app, server)');
  }
}

/**
 * Gives the Koa app a WebSocket middleware chain (koa-websocket). The first link turns errors
 * into close codes (4401, 4403, 4404; 1011 for a bug, which is logged), since a WebSocket has
 * no HTTP status once open; the next links are the same middleware the HTTP routes use.
 */
export function withWebSocket(app: Koa, log: ErrorLogger): WebSocketApp {
  const wsApp = Object.assign(app, { ws: new WebSocketChain() });
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
 * value that carries a credential. The first upgrade imports koa-websocket, hands it the chain
 * and replays the upgrades that arrived meanwhile to the ws server it attached.
 */
export function attachWebSocket(app: WebSocketApp, server: Server, onError: (err: unknown) => void = () => undefined): void {
  const chain = app.ws as WebSocketServer & { middleware?: WebSocketMiddleware[] };
  const pending: [IncomingMessage, Duplex, Buffer][] = [];
  const first = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    pending.push([req, socket, head]);
    server.off('upgrade', first);
    server.on('upgrade', queue);
    import('koa-websocket').then(
      ({ default: websockify }) => {
        // A carrier that inherits the app (createContext, context, request) and holds the real server.
        const carrier = websockify(Object.create(app) as Koa) as WebSocketApp & { ws: { middleware: WebSocketMiddleware[] } };
        carrier.ws.middleware = chain.middleware ?? [];
        server.off('upgrade', queue);
        carrier.ws.listen({ server, maxPayload: 4096, handleProtocols: (offered) => selectProtocol(offered) });
        for (const args of pending.splice(0)) server.emit('upgrade', ...args);
      },
      (err: unknown) => {
        onError(err);
        server.off('upgrade', queue);
        server.on('upgrade', first); // the next upgrade tries again
        for (const [, socket] of pending.splice(0)) socket.destroy();
      },
    );
  };
  const queue = (req: IncomingMessage, socket: Duplex, head: Buffer) => void pending.push([req, socket, head]);
  server.on('upgrade', first);
}

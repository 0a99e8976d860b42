import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ProgramStore } from '../../state/store.js';
import { bearerMatches } from '../auth.js';
import { CLOSE, LogHub } from './log-hub.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEARTBEAT_MS = 30_000;

export interface LogSocketDeps {
  store: Pick<ProgramStore, 'get' | 'onChange'>;
  authSecret: string;
  paths: (id: string) => { stdout: string; stderr: string };
}

/**
 * `WS /ws?id={program_id}`: the `ws` package in noServer mode on the HTTP server's `upgrade`
 * event (koa-websocket 7 wraps `app.listen` and targets koa 2; svcd owns its http.Server).
 * The socket is accepted first, then refused with a close code and reason a browser can read:
 * 4401 when auth_secret is set and neither `Authorization: Bearer` nor `?token=` matches, 4404
 * for an unknown or removed program. Messages from clients are ignored.
 */
export class LogSocket {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  private readonly hub: LogHub;
  private readonly alive = new WeakSet<WebSocket>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: LogSocketDeps) {
    this.hub = new LogHub({ paths: deps.paths });
    this.unsubscribe = deps.store.onChange((ids) => {
      for (const id of ids) if (!deps.store.get(id)) this.hub.closeProgram(id, CLOSE.notFound, `program '${id}' was removed`);
    });
    // Dead peers (no pong for a whole period) are terminated so their followers can stop.
    this.heartbeat = setInterval(() => {
      for (const ws of this.wss.clients) {
        if (!this.alive.has(ws)) ws.terminate();
        this.alive.delete(ws);
        ws.ping();
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** The http.Server `upgrade` listener. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://svcd');
    if (url.pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.accept(ws, req, url));
  };

  /** Closes every client (1001) and stops all followers. */
  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.hub.closeAll(CLOSE.goingAway, 'svcd is shutting down');
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private async accept(ws: WebSocket, req: IncomingMessage, url: URL): Promise<void> {
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('error', () => ws.terminate());
    if (!this.authorized(req, url)) {
      ws.close(CLOSE.unauthorized, 'authentication required: send Authorization: Bearer <secret> or ?token=<secret>');
      return;
    }
    const id = (url.searchParams.get('id') ?? '').toLowerCase();
    if (!UUID.test(id) || !this.deps.store.get(id)) {
      ws.close(CLOSE.notFound, `program '${(url.searchParams.get('id') ?? '').slice(0, 40)}' not found (?id= takes the program UUID)`);
      return;
    }
    const leave = await this.hub.join(id, ws);
    if (ws.readyState !== ws.OPEN) return leave();
    ws.once('close', leave);
  }

  private authorized(req: IncomingMessage, url: URL): boolean {
    const secret = this.deps.authSecret;
    if (!secret) return true;
    const expected = Buffer.from(secret);
    if (bearerMatches(req.headers.authorization ?? '', expected)) return true;
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

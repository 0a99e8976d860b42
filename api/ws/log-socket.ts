import type { WebSocketContext } from 'koa-websocket';
import type { WebSocket } from 'ws';
import type { ObservedRegistry } from '../../state/observed.js';
import type { ProgramStore } from '../../state/store.js';
import { UUID } from '../program-path.js';
import { seesSecrets } from '../redact.js';
import { CLOSE, LogHub } from './log-hub.js';
import { maskedClient } from './masked-client.js';

const HEARTBEAT_MS = 30_000;

export interface LogSocketDeps {
  store: Pick<ProgramStore, 'get' | 'onChange'>;
  /** Where a program's current configuration sends its output. */
  paths: (id: string) => { stdout: string; stderr: string };
  /** Process starts, after which a changed log path is followed. */
  observed?: Pick<ObservedRegistry, 'subscribe'>;
}

/**
 * `WS /ws?id={program_id}`: the last middleware of the koa-websocket chain (api/ws/attach.ts),
 * after the one auth middleware, which has closed the socket with 4401/4403 if the credential
 * was missing, wrong or not allowed to read. The socket is open by then, so refusals are close
 * codes and reasons a browser can read: 4404 for an unknown or removed program (or another
 * path). Readers who do not see secrets get the program's env values masked in each line.
 * Messages from clients are ignored.
 */
export class LogSocket {
  private readonly hub: LogHub;
  private readonly sockets = new Set<WebSocket>();
  private readonly alive = new WeakSet<WebSocket>();
  /** Runs only while a socket is open: an idle daemon has no timer for it. */
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly deps: LogSocketDeps) {
    this.hub = new LogHub({ paths: deps.paths });
    this.unsubscribe = [
      deps.store.onChange((ids) => {
        for (const id of ids) if (!deps.store.get(id)) this.hub.closeProgram(id, CLOSE.notFound, `program '${id}' was removed`);
      }),
    ];
    // A process writes where the configuration said when it started: an updated log path counts from then.
    const started = deps.observed?.subscribe((id, now, prev) => {
      if (now?.started_at != null && now.started_at !== prev?.started_at) void this.hub.refresh(id);
    });
    if (started) this.unsubscribe.push(started);
  }

  /** Dead peers (no pong for a whole period) are terminated so their followers can stop. */
  private beat(): void {
    for (const ws of this.sockets) {
      if (!this.alive.has(ws)) ws.terminate();
      this.alive.delete(ws);
      ws.ping();
    }
  }

  /** The koa-websocket route. */
  readonly route = async (ctx: WebSocketContext): Promise<void> => {
    const ws = ctx.websocket;
    if (ctx.path !== '/ws') return ws.close(CLOSE.notFound, `no WebSocket route at ${ctx.path.slice(0, 60)} (the log stream is /ws?id=<program UUID>)`);
    this.sockets.add(ws);
    this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS).unref();
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.once('close', () => {
      this.sockets.delete(ws);
      if (this.sockets.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = null;
      }
    });
    const given = ctx.query.id;
    // Absent or repeated: said so, not "program '' not found".
    if (given === undefined || given === '') return ws.close(CLOSE.notFound, '?id= is required: the program UUID');
    if (Array.isArray(given)) return ws.close(CLOSE.notFound, '?id= given more than once: one program UUID per stream');
    const id = given.toLowerCase();
    const record = UUID.test(id) ? this.deps.store.get(id) : undefined;
    if (!record) return ws.close(CLOSE.notFound, `program '${given.slice(0, 40)}' not found (?id= takes the program UUID)`);
    const client = seesSecrets(ctx) ? ws : maskedClient(ws, () => this.deps.store.get(id)?.config);
    const leave = await this.hub.join(id, client);
    if (ws.readyState !== ws.OPEN) return leave();
    ws.once('close', leave);
  };

  /** Closes every client (1001) and stops all followers. */
  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const stop of this.unsubscribe) stop();
    this.hub.closeAll(CLOSE.goingAway, 'svcd is shutting down');
    for (const ws of this.sockets) ws.terminate();
  }
}

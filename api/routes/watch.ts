import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { startWatch, type WatchTiming } from '../watch/session.js';
import { SseStream } from '../watch/sse-stream.js';

/** At most one message per program per this many ms. */
export const WATCH_WINDOW_MS = 200;
/** How often the `system` line goes out, changed or not: clients take silence as a lost link. */
export const WATCH_SYSTEM_INTERVAL_MS = 3000;

/**
 * `GET /api/v1/watch`: Server-Sent Events, a snapshot of every program then its changes
 * (docs/api.md). An ordinary Koa route, so the auth gate and metrics apply as to any other.
 * A client that falls more than WATCH_BUFFER_LIMIT behind is disconnected; it reconnects and
 * gets a fresh snapshot.
 */
export function watchRouter(deps: ApiDeps, timing: WatchTiming = { windowMs: WATCH_WINDOW_MS, systemMs: WATCH_SYSTEM_INTERVAL_MS }): Router {
  const router = new Router();
  router.get('/watch', (ctx) => {
    let stop: (() => void) | null = null;
    let dropped = false;
    const sse = new SseStream(() => {
      dropped = true;
      stop?.();
      deps.log.info('watch client dropped: too slow', { remote: ctx.ip });
      ctx.res.destroy();
    });
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Accel-Buffering', 'no'); // a reverse proxy must pass events through at once
    ctx.req.socket.setNoDelay(true);
    ctx.body = sse.body;
    sse.retry(1000);
    const source = { store: deps.store, observed: deps.observed, departing: deps.departing, systemStats: () => deps.systemStats?.() ?? null, clock: deps.clock };
    stop = startWatch(source, (message) => sse.send(message), timing);
    if (dropped) stop();
    // Koa destroys the body when the response ends (client gone, shutdown).
    sse.body.once('close', () => stop?.());
  });
  return router;
}

import type { ApiClient } from '../client/http.js';
import { followLogs } from '../client/log-follow.js';
import { routes } from '../client/routes.js';
import { realTimer, type Timer } from '../client/timer.js';
import { openWatch } from '../client/watch.js';
import { followWatch } from '../client/watch-follow.js';
import type { DashboardClient, EventQuery } from './client.js';

export interface ApiDashboardOptions {
  /** Poll interval of the log fallback (no WebSocket route). */
  logPollMs?: number;
  /** First reconnection delay of the watch stream, doubling up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  clock?: Timer;
}

/** The dashboard's client over tui/client/: the watch stream, typed routes and the log follower. */
export function apiDashboardClient(api: ApiClient, opts: ApiDashboardOptions = {}): DashboardClient {
  const clock = opts.clock ?? realTimer;
  return {
    watch: (sink) => followWatch({ connect: (h) => openWatch(api, h), clock, retryMs: opts.retryMs ?? 1000, maxRetryMs: opts.maxRetryMs ?? 5000 }, sink),
    detail: (id) => routes.getProgram(api, id),
    events: (q: EventQuery) => {
      const params = new URLSearchParams({ order: 'desc', limit: String(q.limit) });
      if (q.programId) params.set('program_id', q.programId);
      if (q.type) params.set('event_type', q.type);
      return routes.events(api, params);
    },
    health: () => routes.health(api),
    batch: async (ids, action) => (await routes.batch(api, { target_ids: ids, action })).results,
    subscribeLogs: (id, sink) =>
      followLogs(api, id, { tail: async () => (await routes.logs(api, id, new URLSearchParams({ tail: '200' }))).logs, pollMs: opts.logPollMs ?? 1000, clock }, sink),
  };
}

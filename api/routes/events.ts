import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { parseEventQuery, programIdParam } from '../event-params.js';
import { programOfPath } from '../program-path.js';
import type { EventList, EventStatsResult } from '../wire.js';

/**
 * Event history: per program (the program must exist), daemon-wide (optionally filtered by a
 * `program_id`, which also finds events of removed programs) and statistics.
 */
export function eventsRouter(deps: Pick<ApiDeps, 'store' | 'events'>): Router {
  const { store, events } = deps;
  const router = new Router();

  router.get('/programs/:id/events', async (ctx) => {
    const { id } = programOfPath(store, ctx.params.id);
    ctx.body = (await events.query(parseEventQuery(ctx.query, id))) satisfies EventList;
  });

  router.get('/events', async (ctx) => {
    ctx.body = (await events.query(parseEventQuery(ctx.query))) satisfies EventList;
  });

  router.get('/events/stats', async (ctx) => {
    ctx.body = (await events.stats(programIdParam(ctx.query.program_id))) satisfies EventStatsResult;
  });

  return router;
}

import Router from '@koa/router';
import { notFound } from '../../state/errors.js';
import type { ApiDeps } from '../deps.js';
import { parseEventQuery, programIdParam, UUID } from '../event-params.js';
import type { EventList, EventStatsResult } from '../wire.js';

/**
 * Event history: per program (the program must exist), daemon-wide (optionally filtered by a
 * `program_id`, which also finds events of removed programs) and statistics.
 */
export function eventsRouter(deps: Pick<ApiDeps, 'store' | 'events'>): Router {
  const { store, events } = deps;
  const router = new Router();

  router.get('/programs/:id/events', async (ctx) => {
    const id = String(ctx.params.id);
    if (!UUID.test(id) || !store.get(id.toLowerCase())) {
      throw notFound(`program '${id}' not found${UUID.test(id) ? '' : ' (the path takes the program UUID, not its name)'}`);
    }
    ctx.body = (await events.query(parseEventQuery(ctx.query, id.toLowerCase()))) satisfies EventList;
  });

  router.get('/events', async (ctx) => {
    ctx.body = (await events.query(parseEventQuery(ctx.query))) satisfies EventList;
  });

  router.get('/events/stats', async (ctx) => {
    ctx.body = (await events.stats(programIdParam(ctx.query.program_id))) satisfies EventStatsResult;
  });

  return router;
}

import Router from '@koa/router';
import { notFound } from '../../state/errors.js';
import type { ApiDeps } from '../deps.js';
import { parseEventQuery, programIdParam, UUID } from '../event-params.js';

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
    ctx.body = await events.query(parseEventQuery(ctx.query, id.toLowerCase()));
  });

  router.get('/events', async (ctx) => {
    ctx.body = await events.query(parseEventQuery(ctx.query));
  });

  router.get('/events/stats', async (ctx) => {
    ctx.body = await events.stats(programIdParam(ctx.query.program_id));
  });

  return router;
}

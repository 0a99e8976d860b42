import Router from '@koa/router';
import type { SvcMetrics } from '../metrics/metrics.js';

/** `GET /metrics`: Prometheus text exposition. Behind the auth gate like every non-exempt path. */
export function metricsRouter(metrics: SvcMetrics): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    ctx.body = await metrics.render();
    ctx.type = metrics.contentType;
  });
  return router;
}

import type { Context, Next } from 'koa';
import { invalid } from '../state/errors.js';
import { ROUTE_QUERY, routeOf } from './route-table.js';

const API = '/api/v1/';

/**
 * Refuses a query parameter the route does not read, naming it and what the route takes: a
 * misspelt `?lines=50` or `?forse=true` would otherwise be ignored and the request served as if
 * it had not been given. Only /api/v1 is checked: the dashboard's page, its assets, /health and
 * /metrics are fetched by browsers, balancers and scrapers that may add their own parameters.
 */
export function queryCheck() {
  return async (ctx: Context, next: Next) => {
    if (ctx.querystring === '' || !ctx.path.toLowerCase().startsWith(API)) return next();
    const route = routeOf(ctx.method, ctx.path);
    if (route === undefined) return next(); // the routers answer 404 or 405
    const allowed = ROUTE_QUERY[route] ?? [];
    const unknown = Object.keys(ctx.query).find((name) => !allowed.includes(name));
    if (unknown !== undefined) {
      const takes = allowed.length === 0 ? 'this route takes none' : `allowed: ${allowed.join(', ')}`;
      throw invalid(`${unknown}: unknown query parameter (${takes})`);
    }
    return next();
  };
}

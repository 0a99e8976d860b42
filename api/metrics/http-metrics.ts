import type { Context, Next } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { MetricSource } from './metrics.js';

// `code`: the HTTP status, as Prometheus' own HTTP metrics name it.
const LABELS = ['method', 'route', 'code'] as const;

/**
 * Counts and times HTTP requests. `route` is the matched route pattern (`/api/v1/programs/:id`),
 * never the raw path, so label cardinality stays bounded; unmatched paths share `unmatched`.
 */
export class HttpMetrics implements MetricSource {
  private requests: Counter<(typeof LABELS)[number]> | null = null;
  private duration: Histogram<(typeof LABELS)[number]> | null = null;

  install(registry: Registry): void {
    this.requests = new Counter({ name: 'svc_http_requests_total', help: 'HTTP requests answered by svcd', labelNames: LABELS, registers: [registry] });
    this.duration = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'HTTP request latency in seconds',
      labelNames: LABELS,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  /** Koa middleware; mount it first so it sees the status the error middleware settles on. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      const began = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const labels = { method: ctx.method, route: routeOf(ctx), code: String(ctx.status) };
        this.requests?.inc(labels);
        this.duration?.observe(labels, Number(process.hrtime.bigint() - began) / 1e9);
      }
    };
  }
}

function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return typeof matched === 'string' ? matched : 'unmatched';
}

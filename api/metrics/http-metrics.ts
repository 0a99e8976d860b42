import type { Context, Next } from 'koa';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { RegistrySource } from './metrics.js';
import { PendingHistogram } from './pending-histogram.js';
import type { PromClient } from './prom.js';

// `code`: the HTTP status, as Prometheus' own HTTP metrics name it.
const LABELS = ['method', 'route', 'code'] as const;
type Label = (typeof LABELS)[number];
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Counts and times HTTP requests. `route` is the matched route pattern (`/api/v1/programs/:id`),
 * never the raw path, so label cardinality stays bounded; unmatched paths share `unmatched`.
 * Until prom-client is loaded (the first scrape) requests are kept as bucket counts and sums,
 * then handed to its counter and histogram.
 */
export class HttpMetrics implements RegistrySource {
  private requests: Counter<Label> | null = null;
  private duration: Histogram<Label> | null = null;
  private pending: PendingHistogram | null = new PendingHistogram(BUCKETS);

  install(registry: Registry, prom: PromClient): void {
    const requests = new prom.Counter({ name: 'svc_http_requests_total', help: 'HTTP requests answered by svcd', labelNames: LABELS, registers: [registry] });
    const duration = new prom.Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'HTTP request latency in seconds',
      labelNames: LABELS,
      buckets: BUCKETS,
      registers: [registry],
    });
    if (this.pending) {
      for (const { labels, count } of this.pending.totals()) requests.inc(labels, count);
      this.pending.replay(duration);
      this.pending = null;
    }
    this.requests = requests;
    this.duration = duration;
  }

  /** Koa middleware; mount it first so it sees the status the error middleware settles on. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      const began = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const labels = { method: ctx.method, route: routeOf(ctx), code: String(ctx.status) };
        const secs = Number(process.hrtime.bigint() - began) / 1e9;
        if (this.pending) this.pending.observe(labels, secs);
        this.requests?.inc(labels);
        this.duration?.observe(labels, secs);
      }
    };
  }
}

function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return typeof matched === 'string' ? matched : 'unmatched';
}

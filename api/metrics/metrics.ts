import { collectDefaultMetrics, Registry } from 'prom-client';
import { finiteSamples } from './finite-samples.js';
import { eventLoopLagMetrics } from './event-loop-lag.js';

/**
 * A source of metric families. It creates its families on the registry once (`install`); values
 * are read at scrape time through prom-client `collect` callbacks or kept up to date by the
 * source itself. Controllers that are built later (health probes, cron, the event log) plug in
 * with one `metrics.add(...)` line in the composition root; nothing here knows about them.
 */
export interface MetricSource {
  install(registry: Registry): void;
}

/**
 * The daemon's own Prometheus registry (never prom-client's global one), with the Node.js
 * runtime metrics of svcd itself (RSS, heap, event-loop lag, GC...) under the `svc_` prefix.
 */
export class SvcMetrics {
  readonly registry = new Registry();

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics === false) return;
    // prom-client's lag window reads its histogram's resolution as lag (0.5 s at idle with 500 ms):
    // its families are replaced by event-loop-lag.ts, which corrects for it. Its own histogram
    // timer is set to fire about once in 24 days, so it costs nothing.
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_', eventLoopMonitoringPrecision: 2 ** 31 - 1 });
    for (const stat of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) this.registry.removeSingleMetric(`svc_nodejs_eventloop_lag_${stat}_seconds`);
    this.add(eventLoopLagMetrics());
    // Gauges named *_total break Prometheus naming rules (promtool rejects them); the same
    // figures remain available per type in svc_nodejs_active_{handles,requests,resources}.
    for (const kind of ['handles', 'requests', 'resources']) this.registry.removeSingleMetric(`svc_nodejs_active_${kind}_total`);
  }

  add(source: MetricSource): this {
    source.install(this.registry);
    return this;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition format (version 0.0.4), without NaN or infinite samples. */
  async render(): Promise<string> {
    return finiteSamples(await this.registry.metrics());
  }
}

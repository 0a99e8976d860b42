import { collectDefaultMetrics, Registry } from 'prom-client';
import { finiteSamples } from './finite-samples.js';

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
    // Sample event-loop lag every 500 ms, not prom-client's 10 ms: 100 wakeups a second were
    // most of an idle daemon's CPU, and lag below half a second is not what an operator hunts.
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_', eventLoopMonitoringPrecision: 500 });
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

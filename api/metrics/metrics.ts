import { createRequire } from 'node:module';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { finiteSamples } from './finite-samples.js';
import { loopLagMetrics } from './loop-lag.js';

type DefaultMetric = (registry: Registry, config: { prefix: string }) => void;
const requireCjs = createRequire(import.meta.url);

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
    // prom-client's default metrics one by one (its own list), except event-loop lag: its timer
    // would wake an idle daemon twice a second; loop-lag.ts measures it only while scraped.
    for (const name of collectDefaultMetrics.metricsList) {
      if (name === 'eventLoopLag') continue;
      (requireCjs(`prom-client/lib/metrics/${name}`) as DefaultMetric)(this.registry, { prefix: 'svc_' });
    }
    this.add(loopLagMetrics({ prefix: 'svc_' }));
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

  private readonly beforeScrape: (() => Promise<void>)[] = [];

  /** Runs before every scrape is rendered (figures sampled on demand, such as program usage). */
  onScrape(fn: () => Promise<void>): this {
    this.beforeScrape.push(fn);
    return this;
  }

  /** The text exposition format (version 0.0.4), without NaN or infinite samples. */
  async render(): Promise<string> {
    for (const fn of this.beforeScrape) await fn();
    return finiteSamples(await this.registry.metrics());
  }
}

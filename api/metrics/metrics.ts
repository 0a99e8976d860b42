import { createRequire } from 'node:module';
import type { Histogram, Registry } from 'prom-client';
import { EarlyGc } from './early-gc.js';
import { finiteSamples } from './finite-samples.js';
import { loopLagMetrics } from './loop-lag.js';
import { PROMETHEUS_CONTENT_TYPE, type PromClient } from './prom.js';

type DefaultMetric = (registry: Registry, config: { prefix: string }) => void;
const requireCjs = createRequire(import.meta.url);

/**
 * A source of metric families. It creates its families on the registry once (`install`, on the
 * first scrape, with prom-client's module); values are read at scrape time through prom-client
 * `collect` callbacks or kept up to date by the source itself (counting from svcd's start, not
 * from the install). Controllers that are built later (health probes, cron, the event log) plug
 * in with one `metrics.add(...)` line in the composition root; nothing here knows about them.
 */
export interface RegistrySource {
  install(registry: Registry, prom: PromClient): void;
}

/** A source that writes its families as text itself (text-families.ts), after the registry's. */
export interface TextSource {
  text(): string;
}

export type MetricSource = RegistrySource | TextSource;

/**
 * The daemon's own Prometheus registry (never prom-client's global one), with the Node.js
 * runtime metrics of svcd itself (RSS, heap, event-loop lag, GC...) under the `svc_` prefix.
 * prom-client (and what it pulls in, several MiB of svcd's memory) is loaded on the first scrape:
 * a daemon nobody scrapes never loads it.
 */
export class SvcMetrics {
  private readonly sources: MetricSource[] = [];
  private loaded: { registry: Registry; prom: PromClient } | null = null;
  private loading: Promise<{ registry: Registry; prom: PromClient }> | null = null;
  private readonly earlyGc: EarlyGc | null;

  constructor(private readonly opts: { defaultMetrics?: boolean } = {}) {
    this.earlyGc = opts.defaultMetrics === false ? null : new EarlyGc();
    if (opts.defaultMetrics !== false) this.add(loopLagMetrics({ prefix: 'svc_' }));
  }

  add(source: MetricSource): this {
    this.sources.push(source);
    if (this.loaded && 'install' in source) source.install(this.loaded.registry, this.loaded.prom);
    return this;
  }

  get contentType(): string {
    return PROMETHEUS_CONTENT_TYPE;
  }

  private readonly beforeScrape: (() => Promise<void>)[] = [];

  /** Runs before every scrape is rendered (figures sampled on demand, such as program usage). */
  onScrape(fn: () => Promise<void>): this {
    this.beforeScrape.push(fn);
    return this;
  }

  /** The text exposition format (version 0.0.4), without NaN or infinite samples. */
  async render(): Promise<string> {
    const { registry } = await this.load();
    for (const fn of this.beforeScrape) await fn();
    const own = this.sources.flatMap((s) => ('text' in s ? [s.text()] : [])).filter((t) => t !== '');
    // Text families drop non-finite samples as they write them: only the registry's need the filter.
    const text = finiteSamples(await registry.metrics());
    return own.length > 0 ? `${text}\n${own.join('\n\n')}\n` : text;
  }

  private load(): Promise<{ registry: Registry; prom: PromClient }> {
    this.loading ??= import('prom-client').then((mod) => {
      const prom: PromClient = (mod as { default?: PromClient }).default ?? mod;
      const registry = new prom.Registry();
      if (this.opts.defaultMetrics !== false) this.installDefaults(prom, registry);
      this.loaded = { registry, prom };
      for (const source of this.sources) if ('install' in source) source.install(registry, prom);
      return this.loaded;
    });
    return this.loading;
  }

  private installDefaults(prom: PromClient, registry: Registry): void {
    // prom-client's default metrics one by one (its own list), except event-loop lag: its timer
    // would wake an idle daemon twice a second; loop-lag.ts measures it only while scraped.
    for (const name of prom.collectDefaultMetrics.metricsList) {
      if (name === 'eventLoopLag') continue;
      (requireCjs(`prom-client/lib/metrics/${name}`) as DefaultMetric)(registry, { prefix: 'svc_' });
    }
    this.earlyGc?.handOver(registry.getSingleMetric('svc_nodejs_gc_duration_seconds') as Histogram<string> | undefined);
    // Gauges named *_total break Prometheus naming rules (promtool rejects them); the same
    // figures remain available per type in svc_nodejs_active_{handles,requests,resources}.
    for (const kind of ['handles', 'requests', 'resources']) registry.removeSingleMetric(`svc_nodejs_active_${kind}_total`);
  }
}

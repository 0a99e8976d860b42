import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';
import type { MetricSource } from './metrics.js';

/**
 * How often the delay histogram's timer fires. Node records the whole interval between two
 * firings (resolution + lag), so every reading is corrected by the resolution below: without
 * that, prom-client's figures read the resolution itself (0.5 s at idle with a 500 ms one).
 * 50 ms is 20 wakeups a second inside libuv (no JavaScript runs), and still sees a 5 ms stall.
 */
export const LAG_RESOLUTION_MS = 50;

const STATS = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'] as const;
type Stat = (typeof STATS)[number];

const HELP: Record<Stat, string> = {
  min: 'Smallest event loop delay since the last scrape, in seconds',
  max: 'Largest event loop delay since the last scrape, in seconds',
  mean: 'Mean event loop delay since the last scrape, in seconds',
  stddev: 'Standard deviation of the event loop delay since the last scrape, in seconds',
  p50: 'Median event loop delay since the last scrape, in seconds',
  p90: '90th percentile of the event loop delay since the last scrape, in seconds',
  p99: '99th percentile of the event loop delay since the last scrape, in seconds',
};

/** The delay statistics of a histogram of whole intervals, in seconds, without the resolution. */
export function lagStats(h: Pick<IntervalHistogram, 'min' | 'max' | 'mean' | 'stddev' | 'percentile' | 'count'>, resolutionMs: number): Record<Stat, number> | null {
  if (h.count === 0) return null; // no firing since the last scrape: no measurement
  const res = resolutionMs * 1e6;
  const lag = (ns: number) => Math.max(0, ns - res) / 1e9;
  return { min: lag(h.min), max: lag(h.max), mean: lag(h.mean), stddev: h.stddev / 1e9, p50: lag(h.percentile(50)), p90: lag(h.percentile(90)), p99: lag(h.percentile(99)) };
}

/**
 * `svc_nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,p99}_seconds`, measured since the
 * previous scrape (the histogram is reset at each); a scrape with no firing in between has none.
 */
export function eventLoopLagMetrics(resolutionMs = LAG_RESOLUTION_MS): MetricSource {
  return {
    install(registry: Registry) {
      const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
      histogram.enable();
      const gauges = new Map<Stat, Gauge>();
      // The first family's collect (a scrape reads families in order) reads the window for all
      // of them, then starts a new one.
      const readWindow = () => {
        const stats = lagStats(histogram, resolutionMs);
        for (const [stat, gauge] of gauges) {
          if (stats) gauge.set(stats[stat]);
          else gauge.reset();
        }
        histogram.reset();
      };
      for (const stat of STATS) {
        gauges.set(stat, new Gauge({ name: `svc_nodejs_eventloop_lag_${stat}_seconds`, help: HELP[stat], registers: [registry], ...(stat === 'min' ? { collect: readWindow } : {}) }));
      }
    },
  };
}

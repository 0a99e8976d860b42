import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { RegistrySource } from './metrics.js';

/** The lag histogram is switched off when nobody scraped for this long. */
export const LOOP_LAG_IDLE_MS = 5 * 60_000;
const RESOLUTION_MS = 500;
const QUANTILES = [50, 90, 99] as const;

/**
 * Event-loop lag (prom-client's names: svc_nodejs_eventloop_lag_{seconds,min,max,mean,stddev,
 * p50,p90,p99}_seconds), measured only while someone scrapes. prom-client's own version keeps a
 * monitorEventLoopDelay timer armed for the life of the process: two wake-ups a second of an
 * otherwise idle daemon. Here the first scrape switches the histogram on (that scrape reports the
 * instant lag only), and it is switched off again LOOP_LAG_IDLE_MS after the last scrape.
 */
export function loopLagMetrics(opts: { prefix: string; setTimer?: (ms: number, fn: () => void) => () => void }): RegistrySource {
  const setTimer =
    opts.setTimer ??
    ((ms: number, fn: () => void) => {
      const t = setTimeout(fn, ms);
      t.unref();
      return () => clearTimeout(t);
    });
  let histogram: IntervalHistogram | null = null;
  let cancelOff = (): void => undefined;
  return {
    install(registry: Registry, prom: PromClient) {
      const gauge = (suffix: string, help: string) => new prom.Gauge({ name: `${opts.prefix}nodejs_eventloop_lag_${suffix}`, help, registers: [registry] });
      const stats = {
        min: gauge('min_seconds', 'The minimum recorded event loop delay (since the previous scrape).'),
        max: gauge('max_seconds', 'The maximum recorded event loop delay (since the previous scrape).'),
        mean: gauge('mean_seconds', 'The mean of the recorded event loop delays (since the previous scrape).'),
        stddev: gauge('stddev_seconds', 'The standard deviation of the recorded event loop delays (since the previous scrape).'),
      };
      const quantiles = QUANTILES.map((q) => [q, gauge(`p${q}_seconds`, `The ${q}th percentile of the recorded event loop delays (since the previous scrape).`)] as const);
      new prom.Gauge({
        name: `${opts.prefix}nodejs_eventloop_lag_seconds`,
        help: 'Lag of event loop in seconds.',
        registers: [registry],
        async collect() {
          const start = process.hrtime.bigint();
          await new Promise((r) => setImmediate(r));
          this.set(Number(process.hrtime.bigint() - start) / 1e9);
          if (histogram && histogram.count > 0) {
            // Node records the whole time between two firings (resolution + delay): the delay is the rest.
            const delay = (ns: number) => Math.max(0, ns - RESOLUTION_MS * 1e6) / 1e9;
            for (const [key, g] of Object.entries(stats)) g.set(key === 'stddev' ? histogram.stddev / 1e9 : delay(histogram[key as keyof typeof stats]));
            for (const [q, g] of quantiles) g.set(delay(histogram.percentile(q)));
            histogram.reset();
          }
          if (!histogram) {
            histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
            histogram.enable();
          }
          cancelOff();
          cancelOff = setTimer(LOOP_LAG_IDLE_MS, () => {
            histogram?.disable();
            histogram = null;
          });
        },
      });
    },
  };
}

import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { PendingHistogram, type Observer } from './pending-histogram.js';

/** prom-client's gc metric: its buckets and kind names (lib/metrics/gc.js). */
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];
const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/**
 * Garbage collections before prom-client is loaded (the first scrape), so that
 * svc_nodejs_gc_duration_seconds counts them from svcd's start as it did when prom-client loaded
 * at start-up. `handOver` replays them into prom-client's histogram and stops observing
 * (prom-client's own observer takes over).
 */
export class EarlyGc {
  private readonly pending = new PendingHistogram(GC_BUCKETS);
  private readonly observer = new PerformanceObserver((list) => this.record(list.getEntries()));

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  handOver(into: Observer | undefined): void {
    this.record(this.observer.takeRecords());
    this.observer.disconnect();
    if (into) this.pending.replay(into);
  }

  private record(entries: PerformanceEntry[]): void {
    for (const entry of entries) {
      const kind = KINDS[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1];
      if (kind) this.pending.observe({ kind }, entry.duration / 1000);
    }
  }
}

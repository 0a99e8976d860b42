/** What a prom-client Histogram needs to receive replayed observations. */
export interface Observer {
  observe(labels: Record<string, string>, value: number): void;
}

interface Series {
  labels: Record<string, string>;
  /** Per bucket (the last one is +Inf): how many observations, and their sum. */
  counts: number[];
  sums: number[];
}

/**
 * Observations made before prom-client is loaded (it loads on the first /metrics scrape), kept as
 * what a histogram keeps: per label set and bucket, a count and a sum; memory does not grow with
 * the number of observations. `replay` feeds them into the real histogram so that its count,
 * sum and every bucket come out exactly as if it had observed them itself: each bucket's
 * observations are replayed at their mean, which lies in the same bucket.
 */
export class PendingHistogram {
  private readonly series = new Map<string, Series>();

  constructor(private readonly buckets: readonly number[]) {}

  observe(labels: Record<string, string>, value: number): void {
    const key = JSON.stringify(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: new Array<number>(this.buckets.length + 1).fill(0), sums: new Array<number>(this.buckets.length + 1).fill(0) };
      this.series.set(key, s);
    }
    let i = this.buckets.findIndex((le) => value <= le);
    if (i < 0) i = this.buckets.length;
    s.counts[i]++;
    s.sums[i] += value;
  }

  /** Observations per label set (the count a request counter must start from). */
  totals(): { labels: Record<string, string>; count: number }[] {
    return [...this.series.values()].map((s) => ({ labels: s.labels, count: s.counts.reduce((a, b) => a + b, 0) }));
  }

  /** Feeds everything into `into`, then forgets it. */
  replay(into: Observer): void {
    for (const s of this.series.values()) {
      s.counts.forEach((n, i) => {
        const mean = s.sums[i] / n;
        for (let k = 0; k < n; k++) into.observe(s.labels, mean);
      });
    }
    this.series.clear();
  }
}

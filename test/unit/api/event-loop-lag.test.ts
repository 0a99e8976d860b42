import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lagStats } from '../../../api/metrics/event-loop-lag.js';

const ms = (n: number) => n * 1e6;

/** A histogram of whole intervals as Node records them: resolution + lag, in nanoseconds. */
function histogram(intervalsNs: number[]) {
  const sorted = [...intervalsNs].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return {
    count: sorted.length,
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
    mean,
    stddev: Math.sqrt(sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / (sorted.length || 1)),
    percentile: (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0,
  };
}

test('an idle loop reads about zero lag, not the resolution', () => {
  const s = lagStats(histogram([ms(50.1), ms(50.2), ms(50.05), ms(50.3)]), 50)!;
  assert.ok(s.p50 < 0.001 && s.p99 < 0.001 && s.max < 0.001, JSON.stringify(s));
  assert.ok(s.min >= 0);
});

test('a stall shows as its own length; a timer that fired early never reads negative', () => {
  const s = lagStats(histogram([ms(49.9), ms(50), ms(50), ms(250)]), 50)!;
  assert.equal(s.min, 0);
  assert.equal(s.max, 0.2);
  assert.equal(s.p99, 0.2);
});

test('no firing since the last scrape is no measurement', () => {
  assert.equal(lagStats(histogram([]), 50), null);
});

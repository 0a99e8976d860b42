import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gaps, median, ratio } from '../../../bench/stats.js';
import { formatRatio, formatValue, resultsTable } from '../../../bench/report.js';

test('median: odd, even, unsorted, non-finite ignored, empty is NaN', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([5, Number.NaN, 1, Number.POSITIVE_INFINITY, 3]), 3);
  assert.ok(Number.isNaN(median([])));
  const input = [3, 1, 2];
  median(input);
  assert.deepEqual(input, [3, 1, 2], 'input is not sorted in place');
});

test('gaps: consecutive differences of sorted timestamps', () => {
  assert.deepEqual(gaps([10, 30, 15]), [5, 15]);
  assert.deepEqual(gaps([1]), []);
});

test('ratio: svc over peer, NaN when a side is missing or the peer is zero', () => {
  assert.equal(ratio(50, 100), 0.5);
  assert.ok(Number.isNaN(ratio(1, 0)));
  assert.ok(Number.isNaN(ratio(Number.NaN, 3)));
});

test('formatValue and formatRatio: fewer decimals as values grow, dash when missing', () => {
  assert.equal(formatValue(1234.5), '1235');
  assert.equal(formatValue(12.345), '12.3');
  assert.equal(formatValue(1.2345), '1.23');
  assert.equal(formatValue(0.01234), '0.012');
  assert.equal(formatValue(Number.NaN), '-');
  assert.equal(formatRatio(0.5), '0.50x');
  assert.equal(formatRatio(0.0019), '0.0019x');
  assert.equal(formatRatio(Number.NaN), '-');
});

test('resultsTable: medians per manager and ratios svc/peer, a dash for what was not measured', () => {
  const table = resultsTable([
    { scenario: 'S1 N=10', what: 'bulk start', unit: 'ms', samples: { svc: [10, 30, 20], pm2: [40], supervisord: [] }, floor: [10], target: '≤1.6x floor' },
  ]);
  const lines = table.split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^\| scenario \| measure \| unit \| floor \| svc \| pm2 \| supervisord \| s6 \| svc\/floor \| svc\/pm2 \| svc\/supervisord \| svc\/s6 \| svc target \|$/);
  assert.equal(lines[2], '| S1 N=10 | bulk start | ms | 10.0 | 20.0 | 40.0 | - | - | 2.00x | 0.50x | - | - | ≤1.6x floor |');
});

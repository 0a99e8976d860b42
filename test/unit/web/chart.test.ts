import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartGeometry, niceMax } from '../../../web/src/logic/chart.js';
import { UsageHistory } from '../../../web/src/logic/usage-history.js';
import { bytes, duration, relative } from '../../../web/src/logic/format.js';

test('the axis top is a nice number at least the maximum and the floor', () => {
  assert.equal(niceMax(0, 5), 5);
  assert.equal(niceMax(7, 5), 10);
  assert.equal(niceMax(130, 5), 200);
  assert.equal(niceMax(2.2, 1), 2.5);
});

test('points map onto the box: time left to right, value bottom to top', () => {
  const g = chartGeometry(
    [
      { at: 0, value: 0 },
      { at: 50, value: 10 },
      { at: 100, value: 5 },
    ],
    { width: 100, height: 50, from: 0, to: 100, floor: 1 },
  );
  assert.equal(g.max, 10);
  assert.equal(g.line, 'M 0.0 50.0 L 50.0 0.0 L 100.0 25.0');
  assert.equal(g.area, 'M 0.0 50.0 L 50.0 0.0 L 100.0 25.0 L 100.0 50 L 0.0 50 Z');
  assert.equal(chartGeometry([], { width: 1, height: 1, from: 0, to: 1, floor: 1 }).line, '');
});

test('usage history keeps the window, one point per refresh, and forgets removed programs', () => {
  const h = new UsageHistory(1000);
  h.record([{ id: 'a', cpu_usage: 1, mem_usage: 10 }, { id: 'b', cpu_usage: 2, mem_usage: 20 }], 0);
  h.record([{ id: 'a', cpu_usage: 3, mem_usage: 30 }], 0);
  h.record([{ id: 'a', cpu_usage: 4, mem_usage: 40 }], 600);
  h.record([{ id: 'a', cpu_usage: 5, mem_usage: 50 }], 1200);
  assert.deepEqual(h.get('a').map((p) => p.cpu), [4, 5]);
  assert.deepEqual(h.get('b'), []);
});

test('figures read like the CLI', () => {
  assert.equal(bytes(0), '-');
  assert.equal(bytes(1536), '1.5 KiB');
  assert.equal(bytes(40 * 1024 * 1024), '40 MiB');
  assert.equal(duration(3725), '1h2m');
  assert.equal(duration(59), '59s');
  assert.equal(relative(10_000, 0), 'in 10s');
  assert.equal(relative(1000, 126_000), '2m5s ago');
});

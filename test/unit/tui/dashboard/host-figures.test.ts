import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepHostFigures } from '../../../../tui/dashboard/hooks/use-watch.js';

const GiB = 1024 ** 3;
const stats = (cpu: number, usedGiB: number) => ({ cpu_percent: cpu, memory_used_bytes: usedGiB * GiB, memory_total_bytes: 16 * GiB, timestamp: 0 });

void test('idle jitter of the host figures is not redrawn; a real move or a stale figure is', () => {
  const shown = stats(3, 4);
  assert.ok(keepHostFigures(shown, stats(3.2, 4), 0, 1000), 'same text');
  assert.ok(keepHostFigures(shown, stats(6, 4.1), 0, 3000), 'under 5 points and 1 % of memory');
  assert.ok(!keepHostFigures(shown, stats(9, 4), 0, 3000), 'cpu moved 6 points');
  assert.ok(!keepHostFigures(shown, stats(3, 4.3), 0, 3000), 'memory moved 2 %');
  assert.ok(!keepHostFigures(shown, stats(5, 4), 0, 30_000), 'older than 30 s');
  assert.ok(!keepHostFigures(shown, null, 0, 1000), 'stats gone (disconnected)');
  assert.ok(!keepHostFigures(null, shown, 0, 1000), 'first figures');
  assert.ok(keepHostFigures(null, null, 0, 1000));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventCounters } from '../../../../state/events/counters.js';

void test('counters order by_type by count descending, per program and overall', () => {
  const c = new EventCounters();
  c.add('process_started', 'a');
  c.add('process_exit', 'a');
  c.add('process_exit', 'a');
  c.add('process_exit', 'b');
  c.add('system_startup', null);
  assert.deepEqual(c.counts('a'), { total: 3, by_type: { process_exit: 2, process_started: 1 } });
  assert.deepEqual(Object.keys(c.counts().by_type), ['process_exit', 'process_started', 'system_startup']);
  assert.equal(c.counts().total, 5);
  c.remove('process_exit', 'b');
  assert.deepEqual(c.counts('b'), { total: 0, by_type: {} });
  assert.deepEqual(c.counts('unknown'), { total: 0, by_type: {} });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparator, TopK } from '../../../../state/events/sort.js';
import { stampEvent } from '../../../../state/events/stamp.js';

const rec = (seq: number, exit_code: number | null) => stampEvent({ event: 'process_exit', exit_code, msg: '' }, 1000, seq);

void test('nulls sort last ascending and first descending; ties by id', () => {
  const rs = [rec(1, null), rec(2, 3), rec(3, 1), rec(4, 3)];
  assert.deepEqual([...rs].sort(comparator('exit_code', 'asc')).map((r) => r.exit_code), [1, 3, 3, null]);
  assert.deepEqual([...rs].sort(comparator('exit_code', 'asc')).map((r) => r.id.slice(-1)), ['3', '2', '4', '1']);
  assert.deepEqual([...rs].sort(comparator('exit_code', 'desc')).map((r) => r.id.slice(-1)), ['1', '4', '2', '3']);
});

void test('TopK keeps the first k of a long stream in order', () => {
  const top = new TopK(5, comparator('exit_code', 'desc'));
  for (let i = 0; i < 1000; i++) top.add(rec(i, i % 97));
  assert.deepEqual(top.sorted().map((r) => r.exit_code), [96, 96, 96, 96, 96]);
  assert.deepEqual(top.sorted().map((r) => r.id.slice(-3)), ['969', '872', '775', '678', '581']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedQueue } from '../../../../state/events/queue.js';

void test('bounded queue is FIFO across wrap-around and refuses when full', () => {
  const q = new BoundedQueue<number>(3);
  assert.ok(q.push(1) && q.push(2) && q.push(3));
  assert.equal(q.push(4), false);
  assert.deepEqual(q.take(2), [1, 2]);
  assert.ok(q.push(5) && q.push(6));
  assert.equal(q.size, 3);
  assert.deepEqual(q.take(10), [3, 5, 6]);
  assert.deepEqual(q.take(1), []);
});

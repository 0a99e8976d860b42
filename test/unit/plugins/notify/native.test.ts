import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kernel } from './kernel.js';

test('notify.so: glob matching of whole names', () => {
  const cases: [string, string, boolean][] = [
    ['api', 'api', true],
    ['api', 'api2', false],
    ['api-*', 'api-eu', true],
    ['api-*', 'api-', true],
    ['api-*', 'web-api', false],
    ['*-worker', 'mail-worker', true],
    ['*', '', true],
    ['w?b', 'web', true],
    ['w?b', 'wb', false],
    ['node[0-9]', 'node7', true],
    ['node[0-9]', 'nodex', false],
    ['node[!0-9]', 'nodex', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['lit\\*', 'lit*', true],
    ['lit\\*', 'litx', false],
    ['[', '[', true],
  ];
  for (const [p, n, want] of cases) assert.equal(kernel.globMatch(p, n), want, `${p} vs ${n}`);
});

test('notify.so: token bucket spends the burst, refills at the rate, never above the burst', () => {
  const b = { tokens: 3, stampMs: 0 };
  assert.deepEqual([1, 2, 3, 4].map(() => kernel.bucketTake(b, 0, 6, 3, true)), [true, true, true, false]);
  assert.equal(kernel.bucketTake(b, 9_999, 6, 3, true), false); // 6 a minute: one every 10 s
  assert.equal(kernel.bucketTake(b, 10_000, 6, 3, true), true);
  assert.equal(kernel.bucketTake(b, 10_000, 6, 3, false), false); // a peek takes nothing
  kernel.bucketTake(b, 10_000_000, 6, 3, false);
  assert.equal(b.tokens, 3);
  kernel.bucketTake(b, 5_000, 6, 3, false); // the clock went back: no refill, no change of stamp
  assert.equal(b.stampMs, 10_000_000);
  assert.throws(() => kernel.bucketTake({ tokens: -1, stampMs: 0 }, 0, 6, 3, true), /invalid token bucket/);
});

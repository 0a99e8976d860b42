import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventId, idRange, seqOf, tsMsOf } from '../../../../state/events/keys.js';

void test('ids sort as (ts_ms, seq) and round-trip', () => {
  const ids = [eventId(1000, 10), eventId(999, 11), eventId(1000, 9), eventId(10_000_000_000_000, 1)];
  assert.deepEqual([...ids].sort(), [eventId(999, 11), eventId(1000, 9), eventId(1000, 10), eventId(10_000_000_000_000, 1)]);
  assert.equal(tsMsOf(eventId(1234, 5)), 1234);
  assert.equal(seqOf(eventId(1234, 5)), 5);
});

void test('idRange covers whole seconds inclusively', () => {
  const { gte, lt } = idRange(10, 20);
  const inside = (id: string) => id >= gte && id < lt;
  assert.ok(inside(eventId(10_000, 0)));
  assert.ok(inside(eventId(20_999, 99)));
  assert.ok(!inside(eventId(9_999, 99)));
  assert.ok(!inside(eventId(21_000, 0)));
  const open = idRange(undefined, undefined);
  assert.ok(eventId(0, 0) >= open.gte && eventId(1e14, 1) < open.lt);
});

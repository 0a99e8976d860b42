import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../../../state/events/bus.js';
import type { EventRecord } from '../../../../state/events/types.js';

const clock = { now: () => 1_700_000_000_123 };

test('the bus stamps each event once and hands the same record to every subscriber', () => {
  const bus = new EventBus(clock, 7);
  const a: EventRecord[] = [];
  const b: EventRecord[] = [];
  bus.subscribe((r) => a.push(r));
  bus.subscribe((r) => b.push(r));
  bus.emit({ event: 'process_started', program_id: 'p', program_name: 'web', msg: 'started pid 1' });
  bus.emit({ event: 'system_startup', msg: 'up' });
  assert.equal(a.length, 2);
  assert.deepEqual(a, b);
  assert.equal(a[0].ts_ms, 1_700_000_000_123);
  assert.equal(a[0].ts, 1_700_000_000);
  assert.notEqual(a[0].id, a[1].id);
  assert.equal(a[1].program_id, null);
  assert.ok(a[0].id < a[1].id, 'ids keep emission order');
});

test('a subscriber that throws is reported and does not stop the others', () => {
  const errors: string[] = [];
  const bus = new EventBus(clock, 0, (err, record) => errors.push(`${record.event}: ${(err as Error).message}`));
  const seen: string[] = [];
  bus.subscribe(() => {
    throw new Error('boom');
  });
  bus.subscribe((r) => seen.push(r.event));
  bus.emit({ event: 'process_exit', msg: 'x' });
  assert.deepEqual(seen, ['process_exit']);
  assert.deepEqual(errors, ['process_exit: boom']);
});

test('an unsubscribed listener gets nothing more', () => {
  const bus = new EventBus(clock, 0);
  const seen: string[] = [];
  const off = bus.subscribe((r) => seen.push(r.event));
  bus.emit({ event: 'process_exit', msg: 'x' });
  off();
  bus.emit({ event: 'process_exit', msg: 'y' });
  assert.equal(seen.length, 1);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchedule } from '../../../controllers/cron/schedule.js';
import { T0, MIN } from '../../helpers/cron-harness.js';

test('next() is strictly after the given time; 5 fields are minutes, 6 fields start with seconds', () => {
  const five = compileSchedule('*/5 * * * *', 'UTC');
  assert.equal(five.next(T0), T0 + 5 * MIN);
  assert.equal(five.next(T0 - 1), T0);
  const six = compileSchedule('*/2 * * * * *', 'UTC');
  assert.equal(six.next(T0), T0 + 2000);
});

test('slotsDesc lists slots in (after, until], newest first, bounded by limit', () => {
  const s = compileSchedule('* * * * *', 'UTC');
  assert.deepEqual(s.slotsDesc(T0, T0 + 3 * MIN, 10), [T0 + 3 * MIN, T0 + 2 * MIN, T0 + MIN]);
  assert.deepEqual(s.slotsDesc(T0, T0 + 3 * MIN, 2), [T0 + 3 * MIN, T0 + 2 * MIN]);
  assert.deepEqual(s.slotsDesc(T0, T0 + MIN - 1, 10), []);
  assert.deepEqual(s.slotsDesc(T0 + MIN, T0, 10), [], 'a clock that went back lists nothing');
});

test('a month of a per-second schedule down costs only `limit` steps', () => {
  const s = compileSchedule('* * * * * *', 'UTC');
  const began = process.hrtime.bigint();
  const slots = s.slotsDesc(T0, T0 + 30 * 24 * 60 * MIN, 102);
  assert.equal(slots.length, 102);
  assert.ok(Number(process.hrtime.bigint() - began) / 1e6 < 500);
});

test('time zones and @aliases', () => {
  assert.equal(compileSchedule('0 9 * * *', 'America/New_York').next(T0), Date.UTC(2024, 0, 1, 14));
  assert.equal(compileSchedule('@hourly', 'UTC').next(T0), T0 + 60 * MIN);
});

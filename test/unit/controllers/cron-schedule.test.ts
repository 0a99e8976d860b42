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

test('across DST changes a range lists the slots next() fires: the shifted slot of a skipped hour, a repeated hour once', () => {
  // 29 March 2026, Berlin: 02:00 CET -> 03:00 CEST, so 02:30 fires at the shifted instant 03:30 CEST.
  const spring = compileSchedule('30 2 * * *', 'Europe/Berlin');
  const shifted = Date.UTC(2026, 2, 29, 1, 30);
  assert.equal(spring.next(Date.UTC(2026, 2, 28, 1, 30)), shifted);
  assert.deepEqual(spring.slotsDesc(Date.UTC(2026, 2, 28, 1, 30), shifted, 102), [shifted], 'the slot next() waits for is due at its time');
  assert.deepEqual(spring.slotsDesc(Date.UTC(2026, 2, 27, 12), Date.UTC(2026, 2, 30, 12), 102), [Date.UTC(2026, 2, 30, 0, 30), shifted, Date.UTC(2026, 2, 28, 1, 30)]);
  // 25 October 2026, Berlin: 02:30 happens twice (CEST, then CET); it fires once.
  const autumn = compileSchedule('30 2 * * *', 'Europe/Berlin');
  assert.deepEqual(autumn.slotsDesc(Date.UTC(2026, 9, 23, 12), Date.UTC(2026, 9, 26, 12), 102), [Date.UTC(2026, 9, 26, 1, 30), Date.UTC(2026, 9, 25, 0, 30), Date.UTC(2026, 9, 24, 0, 30)]);
  assert.deepEqual(autumn.slotsDesc(Date.UTC(2026, 9, 20, 12), Date.UTC(2026, 9, 25, 22), 1), [Date.UTC(2026, 9, 25, 0, 30)], 'a bounded range too');
});

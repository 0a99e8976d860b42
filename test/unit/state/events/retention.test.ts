import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { DAY_MS, msUntilNextUtcMidnight, Retention, retentionCutoffMs } from '../../../../state/events/retention.js';

void test('cutoff is keepDays before now; 0 keeps everything', () => {
  assert.equal(retentionCutoffMs(10 * DAY_MS, 3), 7 * DAY_MS);
  assert.equal(retentionCutoffMs(10 * DAY_MS, 0), null);
});

void test('a keepDays reaching before 1970 keeps everything (svcd logged "event retention failed: RangeError: Invalid time value" for 100000000000)', async () => {
  assert.equal(retentionCutoffMs(Date.UTC(2024, 0, 1), 100_000_000_000), null);
  assert.equal(retentionCutoffMs(Date.UTC(2024, 0, 1), 20_000), null, '20,000 days back is 1969');
  const clock = new FakeClock(Date.UTC(2024, 0, 1));
  let calls = 0;
  const errors: unknown[] = [];
  // What the daemon's onPruned does with the cutoff.
  const retention = new Retention({ clock, keepDays: 100_000_000_000, prune: async () => ++calls, onPruned: (_n, cutoff) => new Date(cutoff).toISOString(), onError: (e) => errors.push(e) });
  await retention.start();
  assert.deepEqual([calls, errors], [0, []]);
  await retention.stop();
});

void test('next UTC midnight', () => {
  assert.equal(msUntilNextUtcMidnight(Date.UTC(2024, 0, 1, 23, 0)), 3_600_000);
  assert.equal(msUntilNextUtcMidnight(Date.UTC(2024, 0, 2)), DAY_MS);
});

void test('runs at start, then once at every UTC midnight', async () => {
  const clock = new FakeClock(Date.UTC(2024, 0, 1, 18));
  const cutoffs: number[] = [];
  const retention = new Retention({ clock, keepDays: 2, prune: async (c) => (cutoffs.push(c), 0) });
  await retention.start();
  assert.deepEqual(cutoffs, [Date.UTC(2023, 11, 30, 18)]);
  clock.advance(6 * 3_600_000 - 1);
  await retention.whenIdle();
  assert.equal(cutoffs.length, 1);
  clock.advance(1);
  await retention.whenIdle();
  assert.deepEqual(cutoffs.slice(1), [Date.UTC(2023, 11, 31)]);
  clock.advance(DAY_MS);
  await retention.whenIdle();
  assert.deepEqual(cutoffs.slice(2), [Date.UTC(2024, 0, 1)]);
  await retention.stop();
  clock.advance(DAY_MS);
  assert.equal(cutoffs.length, 3);
  assert.equal(clock.nextTimerAt(), null);
});

void test('keepDays 0 never prunes and schedules nothing', async () => {
  const clock = new FakeClock();
  let calls = 0;
  const retention = new Retention({ clock, keepDays: 0, prune: async () => ++calls });
  await retention.start();
  clock.advance(5 * DAY_MS);
  assert.equal(calls, 0);
  assert.equal(clock.nextTimerAt(), null);
});

void test('a failing pass is reported and the next midnight still runs', async () => {
  const clock = new FakeClock(Date.UTC(2024, 0, 1, 12));
  const errors: unknown[] = [];
  let calls = 0;
  const retention = new Retention({
    clock,
    keepDays: 1,
    prune: async () => {
      if (++calls === 1) throw new Error('io');
      return 0;
    },
    onError: (e) => errors.push(e),
  });
  await retention.start();
  clock.advance(DAY_MS / 2);
  await retention.whenIdle();
  assert.equal(calls, 2);
  assert.equal(errors.length, 1);
  await retention.stop();
});

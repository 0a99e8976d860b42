import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DueTimer } from '../../../reconciler/due-timer.js';
import { FakeClock } from '../../../reconciler/fake-clock.js';

const pending = (clock: FakeClock) => (clock as unknown as { timers: unknown[] }).timers.length;

test('one clock timer for many keys; keys fire at their time, in order', () => {
  const clock = new FakeClock(0);
  const fired: string[] = [];
  const t = new DueTimer<string>(clock, (k) => fired.push(`${k}@${clock.now()}`));
  t.set('b', 200);
  t.set('a', 100);
  t.set('c', 200);
  assert.equal(pending(clock), 1);
  assert.equal(clock.nextTimerAt(), 100);
  clock.advance(300);
  assert.deepEqual(fired, ['a@100', 'b@200', 'c@200']);
  assert.equal(pending(clock), 0, 'idle: no timer at all');
});

test('set replaces the due time of a key (later or earlier); delete cancels it', () => {
  const clock = new FakeClock(0);
  const fired: string[] = [];
  const t = new DueTimer<string>(clock, (k) => fired.push(`${k}@${clock.now()}`));
  t.set('a', 100);
  t.set('a', 500);
  t.set('b', 50);
  t.delete('b');
  clock.advance(1000);
  assert.deepEqual(fired, ['a@500']);
  assert.equal(t.size, 0);
});

test('never sleeps longer than maxSleepMs (setTimeout overflow, wall-clock steps)', () => {
  const clock = new FakeClock(0);
  const fired: number[] = [];
  const t = new DueTimer<string>(clock, () => fired.push(clock.now()), 1000);
  t.set('far', 3500);
  assert.equal(clock.nextTimerAt(), 1000);
  clock.advance(3500);
  assert.deepEqual(fired, [3500]);
});

test('many re-sets of one key do not grow the heap without bound', () => {
  const clock = new FakeClock(0);
  const t = new DueTimer<string>(clock, () => undefined);
  for (let i = 0; i < 10_000; i++) t.set('k', 1000 + (i % 7));
  assert.ok((t as unknown as { heap: unknown[] }).heap.length <= 65);
});

test('a wall clock stepped back: every wait keeps what it had left instead of growing by the step', () => {
  const clock = new FakeClock(10_000_000);
  const fired: string[] = [];
  const t = new DueTimer<string>(clock, (k) => fired.push(`${k}@${clock.now()}`));
  t.set('retry', 10_000_000 + 2_000); // "in 2 s"
  t.set('later', 10_000_000 + 60_000);
  clock.advance(500);
  clock.stepBack(3_600_000); // the clock was an hour fast
  clock.advance(1_500);
  assert.deepEqual(fired, [`retry@${10_002_000 - 3_600_000}`], '2 s after it was asked for, not an hour later');
  assert.equal(t.get('later'), 10_060_000 - 3_600_000, 'the other wait moved back too');
  clock.advance(58_000);
  assert.deepEqual(fired.at(-1), `later@${10_060_000 - 3_600_000}`);
  // It goes on as usual afterwards.
  t.set('x', clock.now() + 5_000);
  clock.advance(10 * 60_000);
  assert.equal(fired.length, 3);
});

import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TIMEOUT_MS, systemClock } from '../../../reconciler/clock.js';

const YEAR_MS = 31_536_000_000; // download_timeout and kill_after_secs allow up to a year

test('a delay longer than setTimeout allows does not fire at once', async () => {
  let fired = false;
  const cancel = systemClock.setTimer(YEAR_MS, () => (fired = true));
  // Node turns an overflowing delay into 1 ms, and timers fire in the order they are due.
  await new Promise((resolve) => setTimeout(resolve, 20));
  cancel();
  assert.equal(fired, false);
});

test('a delay longer than setTimeout allows fires once, when it is due, and can be cancelled', (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  // One step per setTimeout span: the mock runs a timer set by a callback at the next tick.
  const steps = (n: number) => {
    for (let i = 0; i < n; i++) mock.timers.tick(MAX_TIMEOUT_MS);
  };
  let fired = 0;
  systemClock.setTimer(YEAR_MS, () => fired++);
  steps(14);
  assert.equal(fired, 0);
  mock.timers.tick(YEAR_MS - MAX_TIMEOUT_MS * 14 - 1);
  assert.equal(fired, 0);
  mock.timers.tick(1);
  assert.equal(fired, 1);
  let cancelled = 0;
  const cancel = systemClock.setTimer(YEAR_MS, () => cancelled++);
  steps(3);
  cancel();
  steps(15);
  assert.equal(cancelled, 0);
});

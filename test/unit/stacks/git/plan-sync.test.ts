import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextPollMs, planSync } from '../../../../stacks/git/plan-sync.js';

test('planSync: a new commit applies; the applied one re-applies at start and when asked, not on the timer', () => {
  const s = { applied: 'a', refused: null, allowDrift: false };
  assert.equal(planSync(s, 'b', 'interval'), 'apply');
  assert.equal(planSync(s, 'a', 'interval'), 'keep');
  assert.equal(planSync(s, 'a', 'start'), 'apply');
  assert.equal(planSync(s, 'a', 'manual'), 'apply');
  assert.equal(planSync({ ...s, applied: null }, 'a', 'interval'), 'apply');
});

test('planSync: allow_drift keeps hand changes until the next commit', () => {
  const s = { applied: 'a', refused: null, allowDrift: true };
  assert.equal(planSync(s, 'a', 'start'), 'keep');
  assert.equal(planSync(s, 'a', 'manual'), 'keep');
  assert.equal(planSync(s, 'b', 'interval'), 'apply');
});

test('planSync: a refused commit is retried only when asked', () => {
  const s = { applied: 'a', refused: 'b', allowDrift: false };
  assert.equal(planSync(s, 'b', 'interval'), 'refused');
  assert.equal(planSync(s, 'b', 'start'), 'refused');
  assert.equal(planSync(s, 'b', 'manual'), 'apply');
  assert.equal(planSync(s, 'c', 'interval'), 'apply');
});

test('nextPollMs: the interval, at most 30 s after a failed fetch', () => {
  assert.equal(nextPollMs(60, false), 60_000);
  assert.equal(nextPollMs(600, true), 30_000);
  assert.equal(nextPollMs(5, true), 5_000);
});

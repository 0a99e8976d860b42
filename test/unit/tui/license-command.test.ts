import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeLeft } from '../../../tui/cli/commands/license.js';

test('svc license show says how long the license has left', () => {
  assert.equal(timeLeft(30 * 60_000), 'in less than an hour');
  assert.equal(timeLeft(3_600_000), 'in 1 hour');
  assert.equal(timeLeft(47 * 3_600_000), 'in 47 hours');
  assert.equal(timeLeft(13.5 * 86_400_000), 'in 13 days');
});

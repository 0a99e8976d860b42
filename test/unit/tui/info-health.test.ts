import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeHealth } from '../../../tui/cli/commands/info.js';
import type { HealthView } from '../../../state/observed.js';

const view = (over: Partial<HealthView>): HealthView => ({ healthy: false, failures: 0, successes: 0, last: null, recent: [], ...over });

test('svc info words an Unhealthy verdict by its count: one failure, failures, or none since the check changed', () => {
  assert.equal(describeHealth(view({ failures: 1 })), 'unhealthy (1 failure in a row)');
  assert.equal(describeHealth(view({ failures: 3 })), 'unhealthy (3 failures in a row)');
  assert.equal(describeHealth(view({ failures: 0, successes: 1 })), 'unhealthy (until the check passes; 1 pass so far)');
  assert.equal(describeHealth(view({ healthy: true })), 'healthy');
  assert.equal(describeHealth(null), '-');
});

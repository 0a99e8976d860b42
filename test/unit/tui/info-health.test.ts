import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cronLines, describeHealth } from '../../../tui/cli/commands/info.js';
import type { ProgramConfig, ProgramDetail } from '../../../api/wire.js';
import type { HealthView } from '../../../state/observed.js';

const view = (over: Partial<HealthView>): HealthView => ({ healthy: false, failures: 0, successes: 0, last: null, recent: [], ...over });

test('svc info words an Unhealthy verdict by its count: one failure, failures, or none since the check changed', () => {
  assert.equal(describeHealth(view({ failures: 1 })), 'unhealthy (1 failure in a row)');
  assert.equal(describeHealth(view({ failures: 3 })), 'unhealthy (3 failures in a row)');
  assert.equal(describeHealth(view({ failures: 0, successes: 1 })), 'unhealthy (until the check passes; 1 pass so far)');
  assert.equal(describeHealth(view({ healthy: true })), 'healthy');
  assert.equal(describeHealth(null), '-');
});

test('svc info: a cron program with no next firing says paused only when it is (Stopped); an active schedule with no time ahead says so', () => {
  const config = { name: 'job', command: 'true', cron: '0 2 * * *', cron_tz: 'Australia/Lord_Howe' } as ProgramConfig;
  const cron = { next_fire_at: null, running: 0, queued: 0, skipped: 0, dropped: 0, last_run: null } as unknown as NonNullable<ProgramDetail['state']['cron']>;
  assert.match(cronLines(config, cron, 'Stopped')[0] ?? '', /next: - \(paused\)$/);
  assert.match(cronLines(config, cron, 'Scheduled')[0] ?? '', /next: - \(none: no time ahead matches the schedule in its zone\)$/);
});

import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import DetailPane from '../../../../tui/dashboard/components/DetailPane.js';
import { program } from '../../../helpers/fake-dashboard-client.js';
import type { ProgramDetail } from '../../../../api/wire.js';
import { plain } from '../../../helpers/ink-frames.js';

afterEach(() => cleanup());

test('the detail pane shows the OTA phase, checksums, a pending restart and the last result', () => {
  const p = program('app');
  const detail: ProgramDetail = {
    ...p,
    config: { name: 'app', command: '/opt/app/bin/app' },
    revision: 1,
    created_at: 0,
    updated_at: 0,
    state: {
      status: 'Running',
      desired: 'running',
      pid: p.pid,
      started_at: p.started_at,
      restarts: 0,
      cpu_usage: 0,
      mem_usage: 0,
      uptime_secs: 5,
      retries: 0,
      next_retry_at: null,
      last_exit: null,
      detail: null,
      health: null,
      ota: {
        phase: 'restarting',
        installed: 'a'.repeat(64),
        target: 'b'.repeat(64),
        backup: 'c'.repeat(64),
        attempts: 0,
        next_attempt_at: null,
        rejected: null,
        restart_pending: true,
        swapped_at: 1,
        deadline: null,
        last: { result: 'rolled_back', reason: 'health check failing: connection refused; restored cccccccccccc', at: 0, checksum: 'd'.repeat(64) },
        rollback_seq: 0,
        download: null,
      },
    },
  };
  const app = render(<DetailPane program={p} detail={detail} height={12} width={160} />);
  const frame = plain(app.lastFrame());
  assert.match(frame, /ota: restarting\s+installed: aaaaaaaaaaaa -> bbbbbbbbbbbb\s+restart pending/);
  assert.match(frame, /ota last: rolled_back at .*: health check failing: connection refused/);
});

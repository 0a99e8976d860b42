import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import DetailPane from '../../../../tui/dashboard/components/DetailPane.js';
import StatusLine from '../../../../tui/dashboard/components/StatusLine.js';
import { program } from '../../../helpers/fake-dashboard-client.js';
import type { ProgramDetail } from '../../../../api/wire.js';
import { plain } from '../../../helpers/ink-frames.js';

afterEach(() => cleanup());

function detailOf(config: ProgramDetail['config']): ProgramDetail {
  const p = program('app');
  return {
    ...p,
    config,
    revision: 1,
    created_at: 0,
    updated_at: 0,
    state: { status: 'Running', desired: 'running', pid: p.pid, started_at: p.started_at, restarts: 0, cpu_usage: 0, mem_usage: 0, uptime_secs: 5, retries: 0, next_retry_at: null, last_exit: null, detail: null, health: null },
  };
}

void test('fields left out of a program show their defaults, not "-" (svc add stores only what was given)', () => {
  const app = render(<DetailPane program={program('app')} detail={detailOf({ name: 'app', command: 'sleep', args: ['100'] })} height={8} width={120} />);
  assert.match(plain(app.lastFrame()), /autorestart: unexpected {2}retry_limit: unlimited/);
});

void test('fields given are shown as given', () => {
  const app = render(<DetailPane program={program('app')} detail={detailOf({ name: 'app', command: 'sleep', autorestart: 'false', retry_limit: 0 })} height={8} width={120} />);
  assert.match(plain(app.lastFrame()), /autorestart: false {2}retry_limit: 0/);
});

void test('the status line counts one program in the singular', () => {
  const info = { version: '1.0.0', stats: null };
  const one = render(<StatusLine info={info} connection={{ ok: true }} programs={[program('a')]} filter="" marked={0} />);
  assert.match(plain(one.lastFrame()), /cpu - {2}mem - {2}1 program {2}1 Running/);
  const two = render(<StatusLine info={info} connection={{ ok: true }} programs={[program('a'), program('b')]} filter="" marked={0} />);
  assert.match(plain(two.lastFrame()), /2 programs {2}2 Running/);
});

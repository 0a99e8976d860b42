import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProgramDetail } from '../../../api/wire.js';
import type { LastExit } from '../../../state/observed.js';
import type { ApiClient } from '../../../tui/client/http.js';
import { ApiError } from '../../../tui/client/errors.js';
import { waitReady, type WaitTarget } from '../../../state/readiness.js';
import { apiReadinessSource } from '../../../tui/cli/spawn-check.js';

/** A poll clock that moves 250 ms at each pause: a wait of seconds runs without waiting. */
function fakeTime() {
  let now = 0;
  return { now: () => now, pause: () => Promise.resolve(void (now += 250)) };
}

interface Program {
  id: string;
  name: string;
  status: string;
  desired?: 'running' | 'stopped';
  pid?: number | null;
  uptime_secs?: number | null;
  config?: Record<string, unknown>;
  last_exit?: LastExit | null;
  health?: ProgramDetail['state']['health'];
  request_pending?: true;
}

const crash = (code: number): LastExit => ({ exit_code: code, signal: null, at: 0, duration_ms: 40, reason: 'crash', msg: `crashed: exit code ${code}` });

/**
 * A daemon whose programs move through `script`: the n-th list request (and the details read
 * after it) sees script[n] (the last one again afterwards); a program missing from a step is gone.
 */
function fakeDaemon(script: (Program[] | 'down')[], stderr: string[] = []) {
  let step = 0;
  // 'down': svcd does not answer that list request (restarting); details read after it see the step before.
  const at = (n: number): Program[] => {
    const p = script[Math.min(n, script.length - 1)];
    return p === 'down' ? at(n - 1) : p;
  };
  const now = () => at(step);
  const detail = (p: Program) =>
    ({
      id: p.id,
      name: p.name,
      status: p.status,
      pid: p.pid ?? null,
      ...(p.request_pending ? { request_pending: true } : {}),
      config: { name: p.name, command: 'app', ...p.config },
      state: { status: p.status, desired: p.desired ?? 'running', pid: p.pid ?? null, uptime_secs: p.uptime_secs ?? null, last_exit: p.last_exit ?? null, health: p.health ?? null, detail: null },
    }) as unknown as ProgramDetail;
  const client = {
    get: (path: string) => {
      if (path === '/api/v1/programs') {
        step++;
        if (script[Math.min(step, script.length - 1)] === 'down') return Promise.reject(new ApiError('cannot reach svcd at http://x: connection refused', 'unreachable'));
        return Promise.resolve(now().map((p) => ({ id: p.id, name: p.name, status: p.status, pid: p.pid ?? null, group_name: null, ...(p.request_pending ? { request_pending: true } : {}) })));
      }
      if (path.includes('/logs?')) return Promise.resolve({ id: 'x', logs: stderr.map((content) => ({ source: 'stderr', content })) });
      const p = now().find((q) => path.endsWith(`/programs/${q.id}`));
      return p ? Promise.resolve(detail(p)) : Promise.reject(Object.assign(new Error('not found'), { status: 404 }));
    },
  } as unknown as ApiClient;
  return apiReadinessSource(client);
}

const target = (id: string, named = true): WaitTarget => ({ id, name: id, named });
const options = { timeoutMs: 10_000, stableMs: 1000 };

void test('a health-checked program is ready when Healthy, one without when its process has run for the stable time', async () => {
  const web: Program = { id: 'web', name: 'web', status: 'Running', pid: 10, config: { health_check: { type: 'tcp', port: 80 } } };
  const worker: Program = { id: 'worker', name: 'worker', status: 'Running', pid: 20, uptime_secs: 0 };
  const client = fakeDaemon([[web, worker], [web, worker], [{ ...web, status: 'Healthy' }, worker], [{ ...web, status: 'Healthy' }, worker], [{ ...web, status: 'Healthy' }, worker], [{ ...web, status: 'Healthy' }, worker]]);
  const seen: string[] = [];
  const out = await waitReady(client, [target('web'), target('worker')], { ...options, onReady: (r) => seen.push(`${r.name} ${r.how} ${r.secs}`) }, fakeTime());
  assert.deepEqual(out.failed, []);
  assert.equal(out.timedOut, false);
  // web was Running (health pending) on the first two looks; worker needed 1 s of run.
  assert.deepEqual(seen, ['web Healthy 0.5', 'worker Running for 1 s 1']);
});

void test('a program already up for longer than the stable time is ready at once; --stable 0 takes Running as ready', async () => {
  const client = fakeDaemon([[{ id: 'old', name: 'old', status: 'Running', pid: 5, uptime_secs: 3600 }]]);
  const out = await waitReady(client, [target('old')], options, fakeTime());
  assert.deepEqual(
    out.ready.map((r) => [r.name, r.secs]),
    [['old', 0]],
  );
  const fresh = fakeDaemon([[{ id: 'new', name: 'new', status: 'Running', pid: 6, uptime_secs: 0 }]]);
  assert.equal((await waitReady(fresh, [target('new')], { ...options, stableMs: 0 }, fakeTime())).ready[0]?.how, 'Running');
});

void test('a restart during the stable time starts it again: the new pid must run the whole time', async () => {
  const run = (pid: number): Program => ({ id: 'w', name: 'w', status: 'Running', pid, uptime_secs: 0 });
  // pid 1 for 0.75 s, then pid 2: ready 1 s after pid 2 was first seen (at 1.0 s), not at 1.0 s.
  const client = fakeDaemon([[run(1)], [run(1)], [run(1)], [run(1)], [run(2)], [run(2)], [run(2)], [run(2)], [run(2)], [run(2)]]);
  const out = await waitReady(client, [target('w')], options, fakeTime());
  assert.equal(out.ready[0]?.secs, 2);
});

void test('a one-shot that exited with an expected code is done; a cron program is ready when Scheduled', async () => {
  const done: Program = { id: 'migrate', name: 'migrate', status: 'Exited', last_exit: { exit_code: 0, signal: null, at: 0, duration_ms: 300, reason: 'exit', msg: 'exited: exit code 0' } };
  const cron: Program = { id: 'nightly', name: 'nightly', status: 'Scheduled', config: { cron: '0 3 * * *' } };
  const out = await waitReady(fakeDaemon([[done, cron]]), [target('migrate'), target('nightly')], options, fakeTime());
  assert.deepEqual(
    out.ready.map((r) => [r.name, r.how]),
    [
      ['migrate', 'exited with code 0'],
      ['nightly', 'Scheduled'],
    ],
  );
});

void test('Fatal fails the wait at once with how the process ended and its stderr; the others of that look are still judged', async () => {
  const bad: Program = { id: 'bad', name: 'bad', status: 'Fatal', last_exit: crash(4) };
  const ok: Program = { id: 'ok', name: 'ok', status: 'Running', pid: 3, uptime_secs: 60 };
  const slow: Program = { id: 'slow', name: 'slow', status: 'Starting' };
  const out = await waitReady(fakeDaemon([[bad, ok, slow]], ['cannot bind']), [target('bad'), target('ok'), target('slow')], options, fakeTime());
  assert.equal(out.timedOut, false);
  assert.deepEqual(out.failed, [{ id: 'bad', name: 'bad', status: 'Fatal', problem: { message: 'crashed: exit code 4, 40 ms after it started; now Fatal', stderr: ['cannot bind'] } }]);
  assert.deepEqual(
    out.ready.map((r) => r.name),
    ['ok'],
  );
  assert.deepEqual(out.pending, [{ id: 'slow', name: 'slow', status: 'Starting' }]);
});

void test('an unexpected exit that is not restarted (autorestart = false) fails; Backoff is waited out until the timeout, then named with its last exit', async () => {
  const exited: Program = { id: 'once', name: 'once', status: 'Exited', last_exit: crash(2) };
  const out = await waitReady(fakeDaemon([[exited]]), [target('once')], options, fakeTime());
  assert.match(out.failed[0]?.problem.message ?? '', /^crashed: exit code 2, .*now Exited$/);

  const looping: Program = { id: 'loop', name: 'loop', status: 'Backoff', last_exit: crash(5) };
  const timed = await waitReady(fakeDaemon([[looping]], ['nope']), [target('loop')], { ...options, timeoutMs: 2000 }, fakeTime());
  assert.equal(timed.timedOut, true);
  assert.equal(timed.secs, 2);
  assert.deepEqual(timed.failed[0]?.problem, { message: 'crashed: exit code 5, 40 ms after it started; now Backoff', stderr: ['nope'] });
});

void test('at the timeout an Unhealthy program is named with its failed probes and the last probe message', async () => {
  const sick: Program = {
    id: 'api',
    name: 'api',
    status: 'Unhealthy',
    pid: 9,
    config: { health_check: { type: 'http', url: 'http://127.0.0.1:1/' } },
    health: { healthy: false, failures: 3, successes: 0, last: { at: 0, ok: false, latency_ms: 1, message: 'connection refused' }, recent: [] },
  };
  const out = await waitReady(fakeDaemon([[sick]]), [target('api')], { ...options, timeoutMs: 500 }, fakeTime());
  assert.equal(out.failed[0]?.problem.message, 'Unhealthy, 3 failed probes in a row; last: connection refused');
});

void test('a stopped program fails when it was named, and is skipped when all, a group or a stack selected it; a removal fails', async () => {
  const manual: Program = { id: 'manual', name: 'manual', status: 'Stopped', desired: 'stopped' };
  const named = await waitReady(fakeDaemon([[manual]]), [target('manual')], options, fakeTime());
  assert.equal(named.failed[0]?.problem.message, 'Stopped, and nothing is starting it (svc start manual)');
  const selected = await waitReady(fakeDaemon([[manual]]), [target('manual', false)], options, fakeTime());
  assert.deepEqual(selected.failed, []);
  assert.deepEqual(selected.skipped, [{ id: 'manual', name: 'manual', status: 'Stopped' }]);

  const going: Program = { id: 'gone', name: 'gone', status: 'Starting' };
  const removed = await waitReady(fakeDaemon([[going], [going], []]), [target('gone')], options, fakeTime());
  assert.deepEqual(removed.failed[0]?.problem, { message: 'removed while waiting', stderr: [] });
  assert.deepEqual([removed.timedOut, removed.secs], [false, 0.5], 'said as soon as the list no longer has it, not at the timeout');
});

void test('a program Stopped but meant to run (its first pass not yet done) is waited for, not failed', async () => {
  const soon: Program = { id: 'soon', name: 'soon', status: 'Stopped', desired: 'running' };
  const up: Program = { id: 'soon', name: 'soon', status: 'Running', pid: 4, uptime_secs: 0 };
  const out = await waitReady(fakeDaemon([[soon], [soon], [up]]), [target('soon')], { ...options, stableMs: 0 }, fakeTime());
  assert.deepEqual(out.failed, []);
  assert.equal(out.ready[0]?.name, 'soon');
});

void test('a program whose restart svcd has not taken up yet is on its way: the old crash is no failure, the old process no readiness', async () => {
  // A stack fixes a Fatal program: until the controller takes the restart up, svcd still shows the old crash.
  const old: Program = { id: 'fixed', name: 'fixed', status: 'Fatal', last_exit: crash(3), request_pending: true };
  const up: Program = { id: 'fixed', name: 'fixed', status: 'Running', pid: 8, uptime_secs: 0 };
  const out = await waitReady(fakeDaemon([[old], [old], [{ ...old, status: 'Starting', last_exit: crash(3), request_pending: undefined }], [up]]), [target('fixed')], { ...options, stableMs: 0 }, fakeTime());
  assert.deepEqual(out.failed, []);
  assert.deepEqual(
    out.ready.map((r) => [r.name, r.secs]),
    [['fixed', 0.75]],
  );
  // A program long up whose restart is not taken up yet is not ready on its old process: the new pid must run the stable time.
  const running: Program = { id: 'web', name: 'web', status: 'Running', pid: 1, uptime_secs: 3600, request_pending: true };
  const fresh: Program = { id: 'web', name: 'web', status: 'Running', pid: 2, uptime_secs: 0 };
  const restarted = await waitReady(fakeDaemon([[running], [running], [fresh]]), [target('web')], options, fakeTime());
  assert.deepEqual(
    restarted.ready.map((r) => [r.how, r.secs]),
    [['Running for 1 s', 1.5]],
  );
});

void test('a cron program paused by svc stop (Stopped, desired stopped) is skipped when all or a stack selected it, and a failure saying so when named', async () => {
  const paused: Program = { id: 'nightly', name: 'nightly', status: 'Stopped', desired: 'stopped', config: { cron: '0 3 * * *' } };
  const selected = await waitReady(fakeDaemon([[paused]]), [target('nightly', false)], options, fakeTime());
  assert.deepEqual([selected.failed, selected.skipped], [[], [{ id: 'nightly', name: 'nightly', status: 'Stopped' }]]);
  const named = await waitReady(fakeDaemon([[paused]]), [target('nightly')], options, fakeTime());
  assert.equal(named.failed[0]?.problem.message, 'Stopped, and nothing is starting it (svc start nightly)');
});

void test('when a failure ends the wait, each program still on its way is listed with its status at the last look', async () => {
  const bad: Program = { id: 'bad', name: 'bad', status: 'Starting' };
  const retrying: Program = { id: 'retry', name: 'retry', status: 'Starting' };
  const probed: Program = { id: 'api', name: 'api', status: 'Starting', config: { health_check: { type: 'tcp', port: 80 } } };
  const later = [
    { ...bad, status: 'Fatal', last_exit: crash(1) },
    { ...retrying, status: 'Backoff', last_exit: crash(2) },
    { ...probed, status: 'Running', pid: 7 },
  ];
  const out = await waitReady(fakeDaemon([[bad, retrying, probed], later]), [target('bad'), target('retry'), target('api')], options, fakeTime());
  assert.deepEqual(
    out.failed.map((f) => f.name),
    ['bad'],
  );
  assert.deepEqual(out.pending, [
    { id: 'retry', name: 'retry', status: 'Backoff' },
    { id: 'api', name: 'api', status: 'Running' },
  ]);
});

void test('svcd not answering for a while (a restart) is waited out: the looks meanwhile are skipped, and the wait goes on', async () => {
  const starting: Program = { id: 'w', name: 'w', status: 'Starting' };
  const up: Program = { id: 'w', name: 'w', status: 'Running', pid: 12, uptime_secs: 0 };
  const out = await waitReady(fakeDaemon([[starting], 'down', 'down', 'down', [up]]), [target('w')], { ...options, stableMs: 0 }, fakeTime());
  assert.deepEqual(out.failed, []);
  assert.deepEqual(
    out.ready.map((r) => [r.name, r.secs]),
    [['w', 1]],
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, useDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

const d = useDaemon();

const put = (body: unknown, query: string) => d.request('PUT', `/api/v1/stack${query}`, body);
interface Waited {
  ok: boolean;
  timed_out: boolean;
  ready: { name: string; status: string; how: string }[];
  failed: { name: string; status: string; warning: string; stderr?: string[] }[];
  pending: { name: string }[];
  skipped: { name: string }[];
}

test('PUT /stack?wait=: answers once each program is ready (Healthy, Running for wait_stable, done, Scheduled), with what it waited for', async () => {
  const port = await freePort();
  const res = await put(
    {
      services: [
        { name: 'w-api', command: process.execPath, args: [fixture('tcp-after.js'), String(port), '300'], health_check: { type: 'tcp', port, interval_secs: 1 } },
        { name: 'w-worker', command: process.execPath, args: [fixture('forever.js')] },
        { name: 'w-migrate', command: 'sh', args: ['-c', 'sleep 0.2'], autorestart: 'false' },
        { name: 'w-manual', command: 'sleep', args: ['60'], autostart: false },
        { name: 'w-nightly', command: 'true', cron: '0 3 * * *' },
      ],
    },
    '?source=ci-wait&wait=60&wait_stable=1',
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const wait = res.body.wait as Waited;
  assert.equal(wait.ok, true, JSON.stringify(wait));
  assert.deepEqual(
    wait.ready.map((r) => [r.name, r.status, r.how]).sort(),
    [
      ['w-api', 'Healthy', 'Healthy'],
      ['w-migrate', 'Exited', 'exited with code 0'],
      ['w-nightly', 'Scheduled', 'Scheduled'],
      ['w-worker', 'Running', 'Running for 1 s'],
    ],
  );
  assert.deepEqual(
    wait.skipped.map((s) => s.name),
    ['w-manual'],
  );
  // What the wait saw, svcd shows: the health-checked program is Healthy now.
  const list = (await d.request('GET', '/api/v1/programs')).body as { name: string; status: string }[];
  assert.equal(list.find((p) => p.name === 'w-api')?.status, 'Healthy');
  // Without ?wait= the answer has no `wait`.
  const plain = await put({ services: [{ name: 'w-worker', command: process.execPath, args: [fixture('forever.js')] }] }, '?source=ci-wait-2');
  assert.equal(plain.body.wait, undefined);
});

test('PUT /stack?wait=: a program that goes Fatal ends the wait at once, 200 with wait.ok false, its exit and stderr; a crash loop is named at the timeout', async () => {
  const fatal = await put({ services: [{ name: 'w-doomed', command: 'sh', args: ['-c', 'echo cannot bind >&2; exit 4'], retry_limit: 1, backoff_secs: 0 }] }, '?source=ci-fatal&wait=60');
  assert.equal(fatal.status, 200, JSON.stringify(fatal.body));
  const wait = fatal.body.wait as Waited;
  assert.deepEqual([wait.ok, wait.timed_out], [false, false]);
  assert.deepEqual([wait.failed[0]?.name, wait.failed[0]?.status], ['w-doomed', 'Fatal']);
  assert.match(wait.failed[0]?.warning ?? '', /^crashed: exit code 4, .* after it started; now Fatal$/);
  assert.equal(wait.failed[0]?.stderr?.at(-1), 'cannot bind');

  const started = Date.now();
  const loop = await put({ services: [{ name: 'w-loop', command: 'sh', args: ['-c', 'exit 5'], backoff_secs: 60 }] }, '?source=ci-loop&wait=1');
  const timed = loop.body.wait as Waited;
  assert.deepEqual([timed.ok, timed.timed_out, timed.failed[0]?.status], [false, true, 'Backoff']);
  assert.ok(Date.now() - started >= 1000, 'waited the whole second');
});

test('PUT /stack?wait=: bad parameters are a 400 naming them, and nothing is applied', async () => {
  const body = { services: [{ name: 'w-never', command: 'sleep', args: ['60'] }] };
  for (const [query, message] of [
    ['?wait=0', /^wait: must be at least 1/],
    ['?wait=soon', /^wait: must be an integer/],
    ['?wait=10&dry_run=true', /^wait: a dry run starts nothing to wait for/],
    ['?wait_stable=2', /^wait_stable: needs wait/],
    ['?wait=5&wait_stable=-1', /^wait_stable: must be at least 0/],
  ] as const) {
    const res = await put(body, query);
    assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
    assert.match(String(res.body.message), message);
  }
  const list = (await d.request('GET', '/api/v1/programs')).body as { name: string }[];
  assert.ok(!list.some((p) => p.name === 'w-never'));
});

test('PUT /stack?wait=: a stack that fixes a Fatal program waits for the restart it asked for, not the old crash; an update judges the new process, not the old one', async () => {
  const broken = { name: 'w-fixme', command: 'sh', args: ['-c', 'echo broken >&2; exit 3'], retry_limit: 1, backoff_secs: 0 };
  const first = (await put({ services: [broken] }, '?source=ci-fix&wait=30')).body.wait as Waited;
  assert.deepEqual([first.ok, first.failed[0]?.status], [false, 'Fatal']);
  const fixed = await put({ services: [{ ...broken, args: ['-c', 'sleep 60'] }] }, '?source=ci-fix&wait=30&wait_stable=1');
  assert.deepEqual(fixed.body.lines, ['updated w-fixme (restart)']);
  const wait = fixed.body.wait as Waited & { ready: { secs: number }[] };
  assert.equal(wait.ok, true, JSON.stringify(wait));
  assert.deepEqual([wait.ready[0]?.name, wait.ready[0]?.how], ['w-fixme', 'Running for 1 s']);

  // Up for a while, then restarted by an update: ready only once the new process has run the stable time.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const updated = (await put({ services: [{ ...broken, args: ['-c', 'sleep 61'] }] }, '?source=ci-fix&wait=30&wait_stable=1')).body.wait as Waited & { ready: { secs: number }[] };
  assert.equal(updated.ok, true, JSON.stringify(updated));
  assert.ok((updated.ready[0]?.secs ?? 0) >= 1, `judged on the old process: ${JSON.stringify(updated)}`);
});

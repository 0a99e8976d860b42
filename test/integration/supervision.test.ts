import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, pidAlive, useDaemon } from '../helpers/daemon.js';

const d = useDaemon();

const node = (script: string, args: string[] = [], extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [fixture(script), ...args], ...extra });
const create = async (name: string, body: Record<string, unknown>) => (await d.request('POST', '/api/v1/programs', { name, ...body })).body.id as string;
const detail = async (id: string) => (await d.request('GET', `/api/v1/programs/${id}`)).body;
const logged = (id: string, text: string) =>
  eventually(async () => (await d.request('GET', `/api/v1/programs/${id}/logs?tail=50`)).body.logs.some((l: { content: string }) => l.content.includes(text)), 10_000, `log line '${text}'`);
const statusIs = (id: string, status: string) => eventually(async () => ((await detail(id)).status === status ? detail(id) : null), 10_000, `status ${status}`);

test('stop reaches the whole process group: a child that ignores SIGTERM is gone after stop', async () => {
  const pidFile = join(d.root, 'child.pid');
  const id = await create('parent', node('forks-child.js', [pidFile], { stopsecs: 1 }));
  const running = await statusIs(id, 'Running');
  const child = Number(await eventually(() => { try { return readFileSync(pidFile, 'utf8'); } catch { return null; } }));
  assert.ok(pidAlive(running.pid) && pidAlive(child));
  const res = await d.request('POST', `/api/v1/programs/${id}/stop`);
  assert.equal(res.status, 200);
  assert.equal(res.body.status, 'Stopped');
  await eventually(() => !pidAlive(child) && !pidAlive(running.pid), 5000, 'parent and child gone');
});

test('a program that ignores SIGTERM is killed after stopsecs; ?force=true kills at once', async () => {
  const id = await create('stubborn', node('ignore-term.js', [], { stopsecs: 1 }));
  await logged(id, 'ready'); // the SIGTERM handler is installed
  const t0 = Date.now();
  const res = await d.request('POST', `/api/v1/programs/${id}/stop`);
  assert.equal(res.body.status, 'Stopped');
  assert.ok(Date.now() - t0 >= 900, 'waited stopsecs before SIGKILL');
  assert.equal((await detail(id)).state.last_exit.signal, 9);
  await d.request('POST', `/api/v1/programs/${id}/start`);
  await statusIs(id, 'Running');
  const forced = await d.request('POST', `/api/v1/programs/${id}/stop?force=true`);
  assert.equal(forced.body.status, 'Stopped');
  const bad = await d.request('POST', `/api/v1/programs/${id}/stop?force=maybe`);
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^force: must be true or false/);
});

test('a crashing program backs off and goes Fatal at retry_limit; a manual start revives it', async () => {
  const id = await create('crasher', node('exit-with.js', ['3'], { retry_limit: 2, backoff_secs: 0.05 }));
  const fatal = await statusIs(id, 'Fatal');
  assert.equal(fatal.state.retries, 2);
  assert.equal(fatal.state.last_exit.exit_code, 3);
  const res = await d.request('POST', `/api/v1/programs/${id}/start`);
  assert.equal(res.status, 200);
  assert.notEqual((await detail(id)).state.restarts, 0);
});

test('restart gives a new pid; signal delivers to the process; bad signals are 400', async () => {
  const id = await create('sig', node('forever.js'));
  const first = (await statusIs(id, 'Running')).pid;
  const restarted = await d.request('POST', `/api/v1/programs/${id}/restart`);
  assert.equal(restarted.body.status, 'Running');
  assert.notEqual(restarted.body.pid, first);
  await logged(id, `forever ${restarted.body.pid} started`);
  const sent = await d.request('POST', `/api/v1/programs/${id}/signal`, { signal: 'hup' });
  assert.equal(sent.status, 200);
  await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}/logs?source=stdout`)).body.logs.some((l: { content: string }) => l.content === 'got SIGHUP'));
  const bad = await d.request('POST', `/api/v1/programs/${id}/signal`, { signal: 'winch' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.message, "signal: 'winch' is not one of hup, int, term, kill, quit, usr1, usr2");
  const extra = await d.request('POST', `/api/v1/programs/${id}/signal`, { signal: 'hup', pid: 1 });
  assert.equal(extra.status, 400);
  assert.equal(extra.body.message, 'pid: unknown field (the body is {signal})');
});

test('logs: stdout and stderr from files, tail and source, limits checked', async () => {
  const id = await create('talker', { command: 'sh', args: ['-c', 'for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done; sleep 60'] });
  await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}/logs`)).body.logs.length === 10);
  const tail = await d.request('GET', `/api/v1/programs/${id}/logs?tail=2&source=stdout`);
  assert.deepEqual(tail.body, { id, logs: [{ source: 'stdout', content: 'out4' }, { source: 'stdout', content: 'out5' }] });
  assert.equal((await d.request('GET', `/api/v1/programs/${id}/logs?tail=5001`)).body.message, 'tail: must be at most 5000');
  assert.match((await d.request('GET', `/api/v1/programs/${id}/logs?source=both2`)).body.message, /^source: must be stdout, stderr or both/);
  // Like tail= and every other query parameter: empty is absent (both), repeated is a 400 saying so.
  assert.equal((await d.request('GET', `/api/v1/programs/${id}/logs?source=`)).body.logs.length, 10);
  assert.equal((await d.request('GET', `/api/v1/programs/${id}/logs?source=stdout&source=stderr`)).body.message, 'source: given more than once');
  // A parameter the route does not read is named, not ignored: `lines` is not `tail`.
  const misspelt = await d.request('GET', `/api/v1/programs/${id}/logs?lines=1`);
  assert.equal(misspelt.status, 400);
  assert.equal(misspelt.body.message, 'lines: unknown query parameter (allowed: tail, source)');
  assert.equal((await d.request('POST', `/api/v1/programs/${id}/stop?forse=true`)).body.message, 'forse: unknown query parameter (allowed: force)');
  assert.equal((await d.request('GET', '/api/v1/programs?name=talker')).body.message, 'name: unknown query parameter (this route takes none)');
  assert.equal((await d.request('GET', `/api/v1/programs/${id}`)).body.status, 'Running', 'the refused stop did nothing');
  assert.ok(readFileSync(join(d.root, 'logs', `${id}.out`), 'utf8').startsWith('out1\n'));
});

test('env, env_file and cwd reach the process', async () => {
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(join(d.root, 'work'), { recursive: true });
  writeFileSync(join(d.root, 'app.env'), 'FROM_FILE=file\nBOTH=file\n');
  const id = await create('env', node('print-env.js', ['FROM_FILE', 'BOTH', 'SVC_PROGRAM_NAME'], { env: { BOTH: 'env' }, env_file: 'app.env', cwd: 'work' }));
  const logs = await eventually(async () => {
    const l = (await d.request('GET', `/api/v1/programs/${id}/logs?source=stdout`)).body.logs as { content: string }[];
    return l.length >= 4 ? l.map((x) => x.content) : null;
  });
  assert.deepEqual(logs, ['FROM_FILE=file', 'BOTH=env', 'SVC_PROGRAM_NAME=env', `cwd=${join(d.root, 'work')}`]);
});

test('batch: by group, by ids (unknown ids reported, others done), select_all, bad action named', async () => {
  const a = await create('g1', node('forever.js', [], { group_name: 'workers' }));
  const b = await create('g2', node('forever.js', [], { group_name: 'workers' }));
  await statusIs(a, 'Running');
  await statusIs(b, 'Running');
  const stop = await d.request('POST', '/api/v1/programs/batch', { group_name: 'workers', action: { type: 'Stop', payload: { force: false } } });
  assert.equal(stop.status, 200);
  assert.deepEqual(stop.body.results.map((r: { name: string; status: string }) => [r.name, r.status]).sort(), [['g1', 'Stopped'], ['g2', 'Stopped']]);
  const ghost = '00000000-0000-4000-8000-000000000000';
  const start = await d.request('POST', '/api/v1/programs/batch', { target_ids: [a, ghost], action: { type: 'Start', payload: null } });
  const byId = Object.fromEntries(start.body.results.map((r: { id: string; ok: boolean }) => [r.id, r.ok]));
  assert.deepEqual(byId, { [a]: true, [ghost]: false });
  const bad = await d.request('POST', '/api/v1/programs/batch', { select_all: true, action: { type: 'Explode', payload: null } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.message, 'action.type: must be one of Start, Stop, Restart, Reload, Remove, Signal');
  const badSignal = await d.request('POST', '/api/v1/programs/batch', { select_all: true, action: { type: 'Signal', payload: { signal: 'stop' } } });
  assert.equal(badSignal.status, 400);
  assert.equal(badSignal.body.message, "action.payload.signal: 'stop' is not one of hup, int, term, kill, quit, usr1, usr2");
  const remove = await d.request('POST', '/api/v1/programs/batch', { target_ids: [a, b], action: { type: 'Remove', payload: null } });
  assert.equal(remove.body.results.length, 2);
});

test('hooks run for real: pre_start before the start, post_stop after the exit with its code', async () => {
  const marks = join(d.root, 'hook-marks');
  const id = await create('hooks', {
    command: 'sh',
    args: ['-c', 'exit 7'],
    autorestart: 'false',
    hooks: { pre_start: `sh -c 'echo pre >> ${marks}'`, post_stop: `sh -c 'echo "post $SVC_EXIT_CODE $SVC_EXIT_REASON" >> ${marks}'` },
  });
  await statusIs(id, 'Exited');
  const text = await eventually(() => {
    try {
      const t = readFileSync(marks, 'utf8');
      return t.includes('post') ? t : null;
    } catch {
      return null;
    }
  });
  assert.equal(text, 'pre\npost 7 crash\n');
});

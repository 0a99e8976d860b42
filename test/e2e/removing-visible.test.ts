import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { eventually, fixture, pidAlive, SVC, useDaemon } from '../helpers/daemon.js';
import { svcAgainst } from '../helpers/cli.js';

const d = useDaemon();
const svc = svcAgainst(d);

interface Summary {
  id: string;
  name: string;
  status: string;
  pid: number | null;
  removed?: true;
}

// A removal whose request was interrupted (Ctrl-C on `svc rm`), or that a stack made, leaves a
// process stopping for up to stopsecs: it stays listed, marked removed, and can be forced.
test('a removed program whose process is still stopping stays listed as Removing, refuses other actions, and svc rm --force ends it', async () => {
  const created = await d.request('POST', '/api/v1/programs', { name: 'stubborn', command: process.execPath, args: [fixture('ignore-term.js')], stopsecs: 120 });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  const running = await eventually(async () => (await d.request<Summary[]>('GET', '/api/v1/programs')).body.find((p) => p.id === id && p.status === 'Running'), 10_000, 'running');
  const pid = running.pid!;
  // Its SIGTERM handler is in place once it says so.
  await eventually(async () => (await d.request<{ logs: { content: string }[] }>('GET', `/api/v1/programs/${id}/logs`)).body.logs.some((l) => l.content === 'ready'), 10_000, 'ready');

  // svc rm, interrupted by Ctrl-C while svcd waits for the process: it says what goes on.
  const rm = spawn(process.execPath, [SVC, 'rm', 'stubborn'], { env: { ...process.env, SVC_URL: d.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  let rmErr = '';
  rm.stderr.on('data', (c: Buffer) => (rmErr += c.toString()));
  const rmExit = new Promise<number | null>((resolve) => rm.on('close', (code) => resolve(code)));
  const listed = await eventually(async () => (await d.request<Summary[]>('GET', '/api/v1/programs')).body.find((p) => p.id === id && p.removed), 10_000, 'listed as removed');
  rm.kill('SIGINT');
  assert.equal(await rmExit, 130);
  assert.equal(rmErr, 'svc: interrupted; the removal goes on in svcd: each program is listed as Removing until its process has ended (svc list), and svc rm --force NAME ends it now\n');
  assert.equal(listed.status, 'Stopping');
  assert.equal(listed.pid, pid);
  assert.ok(pidAlive(pid), 'its process ignores SIGTERM and is still there');

  const detail = await d.request('GET', `/api/v1/programs/${id}`);
  assert.equal(detail.status, 200);
  assert.equal(detail.body.removed, true);
  assert.equal(detail.body.state.desired, 'stopped');
  assert.match(detail.body.state.detail, /^removed; its process \(pid \d+\) is stopping/);

  const start = await d.request('POST', `/api/v1/programs/${id}/start`);
  assert.equal(start.status, 404);
  assert.equal(start.body.message, `program 'stubborn' was removed; its process (pid ${pid}) is still stopping: svc rm --force stubborn (DELETE with force=true) ends it now`);

  const logs = await d.request<{ logs: { content: string }[] }>('GET', `/api/v1/programs/${id}/logs`);
  assert.ok(logs.body.logs.some((l) => l.content === 'ignoring SIGTERM'), 'its logs stay readable while it stops');

  const list = await svc('list');
  assert.match(list.stdout, /stubborn\s+Removing\s+\d+/, list.stdout);
  const restart = await svc('restart', 'stubborn');
  assert.equal(restart.code, 1, restart.stdout + restart.stderr);
  assert.match(restart.stdout, /was removed; its process \(pid \d+\) is still stopping: svc rm --force stubborn/);
  assert.ok(pidAlive(pid), 'a refused action touched nothing');

  const forced = await svc('rm', '--force', 'stubborn');
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.match(forced.stdout, /stubborn\s+ok\s+Removed/);
  assert.equal(pidAlive(pid), false, 'SIGKILL ended it');
  assert.equal((await d.request<Summary[]>('GET', '/api/v1/programs')).body.some((p) => p.id === id), false, 'gone from the list once its process ended');
  assert.equal((await d.request('GET', `/api/v1/programs/${id}`)).status, 404);
});

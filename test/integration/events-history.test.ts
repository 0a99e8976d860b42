import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, removeRoot, fixture, tempRoot, eventually } from '../helpers/daemon.js';

interface Row {
  event: string;
  program_id: string | null;
  msg: string;
}

void test('events of a started and stopped program survive a daemon restart and answer over HTTP', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  try {
    const { body } = await d.request('POST', '/api/v1/programs', { name: 'ev', command: process.execPath, args: [fixture('forever.js')], autostart: false });
    const id = body.id as string;
    await d.request('POST', `/api/v1/programs/${id}/start`);
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}`)).body.status === 'Running');
    await d.request('POST', `/api/v1/programs/${id}/stop`);
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}`)).body.status === 'Stopped');
    assert.equal(await d.stop(), 0);

    d = await startDaemon(root);
    const rows = (await d.request('GET', `/api/v1/programs/${id}/events`)).body as Row[];
    assert.deepEqual(rows.map((r) => r.event), ['process_started', 'process_exit']);
    assert.match(rows[1].msg, /^stopped on request/);
    const same = await d.request('GET', `/api/v1/programs/${id}/events?program_id=${id.toUpperCase()}`);
    assert.equal(same.body.length, 2, 'the same program_id again is fine');
    const other = await d.request('GET', `/api/v1/programs/${id}/events?program_id=00000000-0000-4000-8000-000000000000`);
    assert.equal(other.status, 400);
    assert.equal(other.body.message, `program_id: the path names program ${id}; use GET /api/v1/events?program_id=00000000-0000-4000-8000-000000000000 for another`);
    const all = (await d.request('GET', '/api/v1/events?event_type=system_shutdown')).body as Row[];
    assert.equal(all.length, 1, 'system_shutdown was flushed before the first daemon exited');
    assert.match(all[0].msg, /^svcd \S+ stopped \(SIGTERM\)$/, 'it says what stopped svcd');
    // This start's system_startup is written (and counted) behind the ready line: wait for it.
    const startups = async () => ((await d.request('GET', '/api/v1/events/stats')).body as { total: number; by_type: Record<string, number> }).by_type.system_startup;
    await eventually(async () => (await startups()) >= 2, 5000, 'the second system_startup counted');
    assert.equal(await startups(), 2);
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

void test('system_shutdown and svcd.log say what stopped svcd: a signal, or the API request, from where and with which credential', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  try {
    assert.equal((await d.request('POST', '/api/v1/system/shutdown')).status, 202);
    assert.equal(await d.stop(), 0);
    const log = readFileSync(join(root, 'logs', 'svcd.log'), 'utf8');
    assert.match(log, /"shutting down \(POST \/api\/v1\/system\/shutdown from [^,]*127\.0\.0\.1, open mode\): stopping all programs"/);
    d = await startDaemon(root);
    const rows = (await d.request('GET', '/api/v1/events?event_type=system_shutdown')).body as Row[];
    assert.equal(rows.length, 1);
    assert.match(rows[0].msg, /^svcd \S+ stopped \(POST \/api\/v1\/system\/shutdown from \S*127\.0\.0\.1, open mode\)$/);
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

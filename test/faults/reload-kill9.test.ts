import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, pidAlive, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { killSvcProcesses, svcProcesses } from '../helpers/svc-processes.js';

/**
 * kill -9 of svcd in the middle of a reload (docs/reload.md, "Crash safety"): the next svcd keeps
 * exactly one process of the program, never two and never zero; the old one before the
 * hand-over, the new one after it.
 */
const check = { type: 'exec', command: process.execPath, args: [fixture('reload-ready.js')], interval_secs: 0.5, timeout_secs: 2, failure_threshold: 20 }; // a failing new process takes 10 s to be judged: time to crash in between

async function crashMidReload(phase: 'successor' | 'retiring', keeps: 'old' | 'new') {
  const root = tempRoot('svc-fault-reload-');
  let d: RunningDaemon = await startDaemon(root);
  try {
    const dir = mkdtempSync(join(root, 'web-'));
    const body = { name: 'web', command: process.execPath, args: [fixture('reload-server.js'), '200'], cwd: dir, stopsecs: 30, health_check: check };
    const created = await d.request('POST', '/api/v1/programs', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const detail = async () => (await d.request('GET', `/api/v1/programs/${id}`)).body;
    const old = (await eventually(async () => ((await detail()).status === 'Healthy' ? detail() : null), 20_000, 'Healthy')).pid as number;
    // The new process never becomes ready (successor), or the old one takes a minute to stop (retiring).
    writeFileSync(join(dir, phase === 'successor' ? 'broken' : 'slow-stop'), '');
    void d.request('POST', `/api/v1/programs/${id}/reload`).catch(() => undefined); // the answer never comes
    const during = await eventually(async () => {
      const b = await detail();
      return b.state.reload?.phase === phase ? b : null;
    }, 20_000, `reload phase ${phase}`);
    const next = phase === 'successor' ? (during.state.reload.pid as number) : (during.pid as number);
    assert.notEqual(next, old);
    d.proc.kill('SIGKILL');
    if (d.proc.exitCode === null && d.proc.signalCode === null) await new Promise((r) => d.proc.once('exit', r));
    assert.ok(pidAlive(old) && pidAlive(next), 'both processes outlived the daemon');
    rmSync(join(dir, 'broken'), { force: true });
    rmSync(join(dir, 'slow-stop'), { force: true });
    d = await startDaemon(root);
    const kept = keeps === 'old' ? old : next;
    const gone = keeps === 'old' ? next : old;
    await eventually(() => !pidAlive(gone), 20_000, `pid ${gone} ended by the new daemon`);
    const procs = svcProcesses(root).filter((p) => p.role === 'program');
    assert.deepEqual(procs.map((p) => p.pid), [kept], 'exactly one process of the program');
    const after = (await d.request('GET', `/api/v1/programs/${id}`)).body;
    assert.equal(after.pid, kept);
    assert.equal(after.state.reload, null);
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}`)).body.status === 'Healthy', 20_000, 'Healthy again');
    await d.stop();
    assert.deepEqual(svcProcesses(root), [], 'a graceful stop leaves nothing behind');
  } finally {
    if (d.proc.exitCode === null) d.proc.kill('SIGKILL');
    killSvcProcesses(root);
    removeRoot(root);
  }
}

test('kill -9 while the new process waits for Healthy: the old process stays, the new one is ended', { timeout: 300_000 }, async () => {
  await crashMidReload('successor', 'old');
});

test('kill -9 after the hand-over while the old process is still stopping: the new process stays, the old one is ended', { timeout: 300_000 }, async () => {
  await crashMidReload('retiring', 'new');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, pidAlive, useDaemon } from '../helpers/daemon.js';
import { responseChecker } from '../helpers/openapi-responses.js';

/**
 * svc reload against a real svcd (docs/reload.md). The fixture server runs on a port of its own
 * (Node 20 has no SO_REUSEPORT), so two copies run side by side; its exec health check passes
 * once the judged process (SVC_PROBE_PID) wrote ready-<pid> in the working directory.
 */
const d = useDaemon();
const checker = responseChecker();

/** The answer of a reload route, validated against the OpenAPI document. */
async function reload(id: string) {
  const res = await d.request('POST', `/api/v1/programs/${id}/reload`);
  checker.check('POST', '/api/v1/programs/{id}/reload', res.status, res.body);
  return res;
}

const check = { type: 'exec', command: process.execPath, args: [fixture('reload-ready.js')], interval_secs: 0.5, timeout_secs: 2, failure_threshold: 3 };
const detail = async (id: string) => {
  const res = await d.request('GET', `/api/v1/programs/${id}`);
  checker.check('GET', '/api/v1/programs/{id}', res.status, res.body); // state.reload, state.last_reload as documented
  return res.body;
};

async function createWeb(name: string, withCheck: boolean): Promise<{ id: string; dir: string; pid: number }> {
  const dir = mkdtempSync(join(d.root, `${name}-`));
  const body = { name, command: process.execPath, args: [fixture('reload-server.js'), '400'], cwd: dir, stopsecs: 5, ...(withCheck ? { health_check: check } : {}) };
  const res = await d.request('POST', '/api/v1/programs', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const id = res.body.id as string;
  const up = await eventually(async () => {
    const b = await detail(id);
    return b.status === (withCheck ? 'Healthy' : 'Running') ? b : null;
  }, 15_000, `${name} up`);
  return { id, dir, pid: up.pid };
}

/**
 * Samples the processes every few ms while `during` runs: which of the known pids are alive after
 * each detail was read, and whether the old one was already gone before it was asked for (only
 * then must the detail name the new one: it may end while the answer is on its way).
 */
async function watchPids(id: string, old: number, during: Promise<unknown>) {
  const seen = new Set<number>([old]);
  const samples: { alive: number[]; oldGoneBefore: boolean; programPid: number | null }[] = [];
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    const oldGoneBefore = !pidAlive(old);
    const b = await detail(id);
    if (b.state.reload?.pid) seen.add(b.state.reload.pid);
    if (b.pid) seen.add(b.pid);
    samples.push({ alive: [...seen].filter(pidAlive), oldGoneBefore, programPid: b.pid });
    await new Promise((r) => setTimeout(r, 20));
  }
  return { seen, samples };
}

test('reload: the new process starts beside the old one, the old pid ends only after the new one is Healthy, never zero processes', async () => {
  const { id, dir, pid: old } = await createWeb('web', true);
  const answer = reload(id);
  const { seen, samples } = await watchPids(id, old, answer);
  const res = await answer;
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.ok, true, JSON.stringify(res.body));
  const next = res.body.pid as number;
  assert.notEqual(next, old);
  assert.match(res.body.note, new RegExp(`pid ${next} is Healthy and took over from pid ${old}`));
  assert.ok(samples.length > 5, `sampled ${samples.length} times`);
  assert.ok(samples.every((s) => s.alive.length >= 1), 'at least one process at every sample');
  assert.ok(samples.some((s) => s.alive.includes(old) && s.alive.includes(next)), 'both ran side by side');
  // The old process ended after the hand-over: whenever it was gone, the new one was the program's.
  for (const s of samples) if (s.oldGoneBefore) assert.equal(s.programPid, next);
  assert.equal(pidAlive(old), false);
  assert.ok(existsSync(join(dir, `ready-${next}`)));
  assert.deepEqual([...seen].sort(), [old, next].sort(), 'no third process');
  const after = await detail(id);
  assert.equal(after.status, 'Healthy');
  assert.equal(after.state.reload, null);
  assert.equal(after.state.last_reload.result, 'reloaded');
  // The history is written behind the state (a queue drained in batches): wait for both records.
  let types: string[] = [];
  await eventually(async () => {
    types = ((await d.request('GET', `/api/v1/programs/${id}/events?limit=50`)).body as { event: string }[]).map((e) => e.event);
    return types.includes('reload_started') && types.includes('reload_succeeded');
  }, 10_000, 'the reload in the history').catch(() => assert.fail(types.join(' ')));
  const metrics = await fetch(`${d.url}/metrics`).then((r) => r.text());
  assert.match(metrics, new RegExp(`^svc_program_reloads_total\\{name="web",id="${id}",result="reloaded"\\} 1$`, 'm'));
});

test('reload of a never-healthy new process: it is stopped, the old one keeps running, the answer and the history say why', async () => {
  const { id, dir, pid: old } = await createWeb('stuck', true);
  writeFileSync(join(dir, 'broken'), ''); // the next process never becomes ready
  const answer = reload(id);
  const { seen, samples } = await watchPids(id, old, answer);
  const res = await answer;
  assert.equal(res.status, 200);
  assert.equal(res.body.ok, false);
  assert.match(res.body.error, new RegExp(`reload failed: pid \\d+ is Unhealthy \\(last probe: .*not ready\\); stopping pid \\d+; pid ${old} keeps running`));
  assert.ok(samples.every((s) => s.alive.includes(old)), 'the old process ran throughout');
  assert.equal(seen.size, 2);
  const failed = [...seen].find((p) => p !== old)!;
  await eventually(() => !pidAlive(failed), 10_000, 'the failed new process gone');
  const after = await detail(id);
  assert.equal(after.pid, old);
  assert.equal(after.status, 'Healthy');
  assert.equal(after.state.last_reload.result, 'failed');
  await eventually(async () => ((await d.request('GET', `/api/v1/programs/${id}/events?limit=50`)).body as { event: string }[]).some((e) => e.event === 'reload_failed'), 10_000, 'reload_failed in the history');
  rmSync(join(dir, 'broken'));
});

test('reload of a program without a health check: a plain restart, and the answer says so', async () => {
  const { id, pid: old } = await createWeb('plain', false);
  const res = await reload(id);
  assert.equal(res.status, 200);
  assert.equal(res.body.ok, true);
  assert.equal(res.body.note, 'no health check: restarted, with downtime');
  assert.notEqual(res.body.pid, old);
  assert.equal(pidAlive(old), false);
  const after = await detail(id);
  assert.equal(after.state.last_reload.result, 'restarted');
});

test('batch Reload over a group answers per program; an unknown id is an outcome, not a failure of the whole', async () => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  const res = await d.request('POST', '/api/v1/programs/batch', { select_all: true, target_ids: [unknown], action: { type: 'reload' } });
  checker.check('POST', '/api/v1/programs/batch', res.status, res.body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.action, 'Reload');
  const byName = new Map(res.body.results.map((r: { name: string; id: string }) => [r.name || r.id, r]));
  assert.equal((byName.get('web') as { ok: boolean }).ok, true, JSON.stringify(res.body));
  assert.equal((byName.get('plain') as { note: string }).note, 'no health check: restarted, with downtime');
  assert.match((byName.get(unknown) as { error: string }).error, /not found/);
});

test('reload of a cron program is a restart of its schedule, and the answer says so', async () => {
  const res = await d.request('POST', '/api/v1/programs', { name: 'tick', command: 'true', cron: '0 0 1 1 *' });
  assert.equal(res.status, 201);
  await eventually(async () => (await detail(res.body.id)).state.status === 'Scheduled', 10_000, 'Scheduled');
  const answer = await reload(res.body.id);
  assert.equal(answer.body.ok, true, JSON.stringify(answer.body));
  assert.match(answer.body.note, /a cron program: restarted/);
});

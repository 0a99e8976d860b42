import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, fixture, useDaemon } from '../helpers/daemon.js';

const d = useDaemon();

interface CronDetail {
  status: string;
  next_fire_at?: number | null;
  state: { status: string; cron?: { next_fire_at: number | null; running: number; last_run: { exit_code: number | null; duration_secs: number; reason: string; msg: string } | null } };
}

const detail = async (id: string) => (await d.request<CronDetail>('GET', `/api/v1/programs/${id}`)).body;

test('a 6-field (seconds) schedule fires within seconds: cron_started and cron_exit are recorded, last run observed', async () => {
  const created = await d.request('POST', '/api/v1/programs', {
    name: 'tick',
    command: process.execPath,
    args: [fixture('exit-with.js'), '3'],
    cron: '*/2 * * * * *',
  });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  // The create answers once the record is stored; the cron controller publishes the schedule on
  // its first pass right after, so the first read may come before it.
  const first = await eventually(async () => {
    const o = await detail(id);
    return ['Scheduled', 'Running'].includes(o.state.status) && o.state.cron ? o : null;
  }, 5000, 'the schedule published (Scheduled or Running)');
  assert.ok(first.state.cron!.next_fire_at! > Date.now() - 1000);
  const ran = await eventually(async () => {
    const o = await detail(id);
    return o.state.cron?.last_run?.exit_code === 3 ? o : null;
  }, 15_000, 'a finished cron run');
  assert.equal(ran.state.cron!.last_run!.reason, 'failed');
  assert.ok(ran.state.cron!.last_run!.duration_secs >= 0);
  const events = await eventually(async () => {
    const e = (await d.request<{ event: string; exit_code: number | null; duration_secs: number | null; msg: string }[]>('GET', `/api/v1/programs/${id}/events`)).body;
    return e.some((x) => x.event === 'cron_exit') ? e : null;
  }, 5000, 'cron events in the history');
  assert.match(events.find((e) => e.event === 'cron_started')!.msg, /^run started pid \d+ for slot /);
  const exit = events.find((e) => e.event === 'cron_exit')!;
  assert.equal(exit.exit_code, 3);
  assert.equal(typeof exit.duration_secs, 'number');
  const list = (await d.request<{ id: string; next_fire_at?: number }[]>('GET', '/api/v1/programs')).body;
  assert.ok(typeof list.find((p) => p.id === id)!.next_fire_at === 'number', 'the summary carries next_fire_at');

  const metrics = await fetch(`${d.url}/metrics`).then((r) => r.text());
  assert.match(metrics, new RegExp(`svc_cron_last_duration_seconds\\{name="tick",id="${id}"\\} `));
  assert.match(metrics, /svc_cron_next_fire_timestamp_seconds\{name="tick"/);
  const stopped = await d.request('POST', `/api/v1/programs/${id}/stop`);
  assert.equal(stopped.status, 200);
  const paused = await detail(id);
  assert.equal(paused.state.status, 'Stopped');
  assert.equal(paused.state.cron!.next_fire_at, null);
});

test('an invalid cron expression is a 400 naming cron', async () => {
  const res = await d.request('POST', '/api/v1/programs', { name: 'bad', command: 'true', cron: '* * *' });
  assert.equal(res.status, 400);
  assert.match(res.body.message, /^program 'bad': cron: invalid expression/);
});

test('a command that does not exist records cron_spawn_failed with the reason', async () => {
  const created = await d.request('POST', '/api/v1/programs', { name: 'ghost', command: '/nonexistent/job', cron: '* * * * * *' });
  const id = created.body.id as string;
  const o = await eventually(async () => {
    const x = await detail(id);
    return x.state.cron?.last_run?.reason === 'spawn_failed' ? x : null;
  }, 10_000, 'a spawn failure');
  assert.match(o.state.cron!.last_run!.msg, /spawn failed for slot \S+: command not found: \/nonexistent\/job/);
  await eventually(async () => (await d.request<{ event: string }[]>('GET', `/api/v1/programs/${id}/events?event_type=cron_spawn_failed`)).body.length > 0, 5000, 'cron_spawn_failed in the history');
  await d.request('POST', `/api/v1/programs/${id}/stop`);
});

test('a cron program created by a stack is Scheduled, like one created by the API', async () => {
  const res = await d.request('PUT', '/api/v1/stack?source=stack:jobs', { services: [{ name: 'stacked-job', command: 'true', cron: '0 3 * * *' }] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = (await d.request<{ id: string; name: string }[]>('GET', '/api/v1/programs')).body.find((p) => p.name === 'stacked-job')!.id;
  const o = await eventually(async () => ((await detail(id)).state.status === 'Scheduled' ? detail(id) : null), 5000, 'Scheduled');
  assert.ok(o.state.cron!.next_fire_at! > Date.now());
});

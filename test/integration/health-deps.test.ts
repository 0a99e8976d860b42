import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, useDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

const d = useDaemon();

const node = (script: string, args: (string | number)[], extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [fixture(script), ...args.map(String)], ...extra });
const create = async (name: string, body: Record<string, unknown>) => {
  const res = await d.request('POST', '/api/v1/programs', { name, ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
};
const detail = async (id: string) => (await d.request('GET', `/api/v1/programs/${id}`)).body;
const statusIs = (id: string, status: string, ms = 15_000) => eventually(async () => ((await detail(id)).status === status ? detail(id) : null), ms, `status ${status}`);

test('an http check makes the program Healthy, then Unhealthy, restarts it with health_restart, and it recovers', async () => {
  const port = await freePort();
  const flag = join(d.root, 'fail-now');
  const id = await create('web', node('http-ok.js', [port, flag], {
    health_check: { type: 'http', url: `http://127.0.0.1:${port}/health`, interval_secs: 0.2, timeout_secs: 1, failure_threshold: 2, restart_on_failure: true, start_period_secs: 30 },
    backoff_secs: 0,
  }));
  const healthy = await statusIs(id, 'Healthy');
  assert.equal(healthy.state.health.last.ok, true);
  assert.match(healthy.state.health.last.message, /HTTP 200/);
  assert.equal(typeof healthy.state.health.last.latency_ms, 'number');
  const firstPid = healthy.pid;
  writeFileSync(flag, '');
  await eventually(async () => (await detail(id)).state.last_exit?.reason === 'health', 15_000, 'a health restart');
  const { rmSync } = await import('node:fs');
  rmSync(flag);
  // Recovered: a new process, Healthy (a condition on both: the report may lag the restart by a probe).
  const again = await eventually(async () => {
    const b = await detail(id);
    return b.status === 'Healthy' && b.pid !== firstPid ? b : null;
  }, 15_000, 'Healthy again with a new process');
  assert.notEqual(again.pid, firstPid, 'restarted: a new process');
  assert.ok(again.state.restarts >= 1);
  // The turn to Unhealthy is in the history (notify and reactions can act on it), before the restart.
  const history = (await d.request('GET', `/api/v1/programs/${id}/events?order=asc&limit=1000`)).body as { event: string; msg: string }[];
  const kinds = history.map((e) => e.event);
  assert.ok(kinds.includes('process_unhealthy') && kinds.indexOf('process_unhealthy') < kinds.indexOf('health_restart'), kinds.join(','));
  assert.match(history.find((e) => e.event === 'process_unhealthy')!.msg, /^health check failing \(2 in a row\): GET http:\/\/127\.0\.0\.1:\d+\/health: HTTP 5\d\d$/);
});

test('a tcp check and dependency ordering: a three-program chain starts in order', async () => {
  const dbPort = await freePort();
  // db opens its port only when the test says so (not after a delay a slow machine could outlast
  // before the waiting states below are read).
  const open = join(d.root, 'db-may-listen');
  const db = await create('db', node('tcp-after.js', [dbPort, open], { health_check: { type: 'tcp', port: dbPort, interval_secs: 0.2 } }));
  const api = await create('api', node('forever.js', [], { depends_on: ['db'] }));
  const web = await create('web2', node('forever.js', [], { depends_on: ['api'] }));
  await eventually(async () => {
    const a = await detail(api);
    return a.status === 'Starting' && /waiting for db \((Running|Starting|Unhealthy), needs Healthy\)/.test(a.state.detail ?? '') ? a : null;
  }, 10_000, 'api waiting for db');
  assert.equal((await detail(web)).status, 'Starting');
  assert.equal((await detail(api)).status, 'Starting', 'api still waits: db cannot be Healthy before its port opens');
  const opened = Date.now();
  writeFileSync(open, '');
  await statusIs(web, 'Running');
  const [dbD, apiD, webD] = await Promise.all([detail(db), detail(api), detail(web)]);
  assert.equal(dbD.status, 'Healthy');
  // The latest probe time moves every 0.2 s, so it says nothing about when db became Healthy;
  // api's start does: db could not be Healthy before its port opened.
  assert.ok(apiD.started_at >= opened, `api started ${opened - apiD.started_at} ms before db's port opened`);
  assert.ok(apiD.started_at <= webD.started_at, 'web started after api');
  // Stopping many stops dependants first.
  const stop = await d.request('POST', '/api/v1/programs/batch', { target_ids: [db, api, web], action: { type: 'Stop', payload: { force: false } } });
  assert.deepEqual(stop.body.results.map((r: { name: string }) => r.name), ['web2', 'api', 'db']);
  const removeDb = await d.request('DELETE', `/api/v1/programs/${db}`);
  assert.equal(removeDb.status, 400);
  assert.match(removeDb.body.message, /program 'db': cannot remove or rename: required by 'api'/);
});

test('an exec check runs in the program environment; a disabled check is stored but not run', async () => {
  const id = await create('execd', node('forever.js', [], { env: { PROBE_OK: '1' }, health_check: { type: 'exec', command: 'sh', args: ['-c', 'test "$PROBE_OK" = 1'], interval_secs: 0.2 } }));
  await statusIs(id, 'Healthy');
  const metrics = await fetch(`${d.url}/metrics`).then((r) => r.text());
  assert.match(metrics, new RegExp(`svc_health_probe_success\\{name="execd",id="${id}"\\} 1`));
  assert.match(metrics, /svc_health_probe_latency_seconds\{name="execd"/);
  assert.match(metrics, /svc_events_written_total \d+/);
  assert.match(metrics, /svc_events_dropped_total 0/);
  const off = await create('off', node('forever.js', [], { health_check: { type: 'tcp', port: 1, enabled: false } }));
  const on = await create('on', node('forever.js', [], { health_check: { type: 'tcp', port: 1, interval_secs: 0.2 } }));
  // Once the enabled twin has been probed, a disabled check would have been too.
  await eventually(async () => ((await detail(on)).state.health?.last ? true : null), 15_000, 'a probe of the enabled twin');
  const o = await statusIs(off, 'Running');
  assert.equal(o.state.health, null);
});

test('health_check fields are validated with the field named', async () => {
  const res = await d.request('POST', '/api/v1/programs', { name: 'h', command: 'x', health_check: { type: 'tcp' } });
  assert.equal(res.body.message, "program 'h': health_check.port: is required");
  const res2 = await d.request('POST', '/api/v1/programs', { name: 'h', command: 'x', health_check: { type: 'http', url: 'http://x', interval_secs: 0 } });
  assert.equal(res2.body.message, "program 'h': health_check.interval_secs: must be > 0");
});

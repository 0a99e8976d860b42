import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startDaemon, removeRoot, fixture, tempRoot, eventually, type RunningDaemon } from '../helpers/daemon.js';
import { connectWs } from '../helpers/ws.js';

const ticker = (name: string, ms = 100) => ({ name, command: process.execPath, args: [fixture('ticker.js'), String(ms)] });

async function metricsText(d: RunningDaemon, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`${d.url}/metrics`, { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

function promtoolAvailable(): boolean {
  return spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
}

describe('observability (open daemon, docs disabled)', () => {
  let d: RunningDaemon;
  let id: string;
  before(async () => {
    d = await startDaemon(tempRoot(), { config: '[server]\nport = 0\n' });
    id = (await d.request('POST', '/api/v1/programs', ticker('ticker'))).body.id as string;
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}`)).body.status === 'Running', 10_000, 'ticker running');
  });
  after(async () => {
    await d.stop();
    removeRoot(d.root);
  });

  test('/metrics: program families labelled by name and id; status gauge follows a stop', async () => {
    const m = await metricsText(d);
    assert.equal(m.status, 200);
    assert.match(m.type, /^text\/plain; version=0\.0\.4/);
    const labels = `name="ticker",id="${id}"`;
    assert.ok(m.text.includes(`svc_program_status{${labels},status="Running"} 1`), m.text);
    assert.ok(m.text.includes(`svc_program_status{${labels},status="Stopped"} 0`));
    assert.ok(m.text.includes(`svc_program_up{${labels}} 1`));
    for (const family of ['svc_program_restarts_total', 'svc_program_cpu_ratio', 'svc_program_memory_bytes']) assert.ok(m.text.includes(`${family}{${labels}}`), family);
    for (const line of ['svc_cgroup_enforced_total 0', 'svc_reconcile_queue_depth ', 'svc_reconcile_passes_total ', 'svc_reconcile_duration_seconds_total ']) assert.ok(m.text.includes(line), line);
    for (const family of ['svc_process_resident_memory_bytes', 'svc_nodejs_heap_size_used_bytes', 'svc_nodejs_eventloop_lag_seconds']) assert.ok(m.text.includes(`# TYPE ${family}`), family);
    assert.match(m.text, /svc_http_requests_total\{method="POST",route="\/api\/v1\/programs",code="201"\} 1/);
    assert.match(m.text, /svc_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/programs\/:id",code="200"\}/);

    assert.equal((await d.request('POST', `/api/v1/programs/${id}/stop`)).status, 200);
    const after = await eventually(async () => {
      const text = (await metricsText(d)).text;
      return text.includes(`svc_program_status{${labels},status="Stopped"} 1`) ? text : null;
    }, 10_000, 'status gauge Stopped');
    assert.ok(after.includes(`svc_program_status{${labels},status="Running"} 0`));
    assert.ok(after.includes(`svc_program_up{${labels}} 0`));
    assert.match(after, new RegExp(`svc_program_exits_total\\{${labels.replace(/[.]/g, '\\.')},reason="stop"\\} 1`));
    assert.equal((await d.request('POST', `/api/v1/programs/${id}/start`)).status, 200);
  });

  test('/metrics passes promtool check metrics', async (t) => {
    if (!promtoolAvailable()) {
      if (process.env.CI) assert.fail('promtool is required under CI: run scripts/install-system-deps.sh');
      t.skip('promtool not installed: run scripts/install-system-deps.sh (or apt-get install prometheus)');
      return;
    }
    const { text } = await metricsText(d);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(check.status, 0, `promtool check metrics:\n${check.stdout}${check.stderr}`);
  });

  test('GET /api/v1/system/stats: host snapshot', async () => {
    const res = await eventually(async () => {
      const r = await d.request('GET', '/api/v1/system/stats');
      return r.status === 200 ? r : null;
    }, 5000, 'first stats sample');
    assert.deepEqual(Object.keys(res.body).sort(), ['cpu_percent', 'memory_total_bytes', 'memory_used_bytes', 'timestamp']);
    assert.ok(res.body.memory_total_bytes > 0 && res.body.memory_used_bytes > 0 && res.body.memory_used_bytes <= res.body.memory_total_bytes);
    assert.ok(res.body.cpu_percent >= 0 && res.body.cpu_percent <= 100);
    assert.ok(Number.isInteger(res.body.timestamp) && Math.abs(res.body.timestamp - Date.now() / 1000) < 30);
  });

  test('docs are off by default: openapi.json and /api/docs answer the JSON 404', async () => {
    for (const path of ['/api/v1/openapi.json', '/api/docs']) {
      const res = await d.request('GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.status, 'error');
    }
  });

  test('WS /ws?id=: two clients receive new stdout and stderr lines of a running program', async () => {
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}`)).body.status === 'Running', 10_000, 'ticker running again');
    const wsUrl = `${d.url.replace(/^http/, 'ws')}/ws?id=${id}`;
    const a = connectWs(wsUrl);
    const b = connectWs(wsUrl);
    await Promise.all([a.opened, b.opened]);
    await eventually(() => [a, b].every((c) => c.messages.some((m) => m.source === 'stdout') && c.messages.some((m) => m.source === 'stderr')), 10_000, 'lines on both clients');
    const line = a.messages.find((m) => m.source === 'stdout')!;
    assert.match(line.content, /^tick \d+$/);
    assert.ok(Math.abs(line.ts - Date.now() / 1000) < 30, 'ts is Unix seconds');
    assert.deepEqual(Object.keys(line).sort(), ['content', 'source', 'ts']);
    a.ws.close();
    b.ws.close();
  });

  test('WS follows copy+truncate rotation of the log file', async () => {
    const c = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${id}`);
    await c.opened;
    await eventually(() => c.messages.some((m) => m.source === 'stdout'), 10_000, 'a line before rotation');
    truncateSync(join(d.root, 'logs', `${id}.out`), 0);
    const mark = c.messages.length;
    await eventually(() => c.messages.slice(mark).filter((m) => m.source === 'stdout').length >= 3, 10_000, 'lines after truncation');
    for (const m of c.messages.slice(mark)) assert.match(m.content, /^(tick|tock) \d+$/, 'whole lines, nothing garbled');
    c.ws.close();
  });

  test('WS follows the new file after stdout_logfile is changed and the program restarted (it stayed on the old one, silent)', async () => {
    const mover = (await d.request('POST', '/api/v1/programs', ticker('mover'))).body.id as string;
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${mover}`)).body.status === 'Running', 10_000, 'mover running');
    const c = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${mover}`);
    await c.opened;
    await eventually(() => c.messages.some((m) => m.source === 'stdout'), 10_000, 'a line from the default file');
    assert.equal((await d.request('PUT', `/api/v1/programs/${mover}`, { stdout_logfile: 'mover-moved.out', args: ['-e', "setInterval(() => console.log('moved'), 100)"] })).status, 200);
    assert.equal((await d.request('POST', `/api/v1/programs/${mover}/restart`)).status, 200);
    await eventually(() => c.messages.some((m) => m.source === 'stdout' && m.content === 'moved'), 10_000, 'lines of the restarted process from mover-moved.out');
    c.ws.close();
    assert.equal((await d.request('DELETE', `/api/v1/programs/${mover}`)).status, 200);
  });

  test('a log path taken by a directory: GET /logs and flush answer 409 naming the file (they were 500 internal error); a path under a file has no lines', async () => {
    const create = await d.request('POST', '/api/v1/programs', { ...ticker('dirlog'), autostart: false, stdout_logfile: 'taken' });
    const dirlog = create.body.id as string;
    mkdirSync(join(d.root, 'logs', 'taken'));
    const logs = await d.request('GET', `/api/v1/programs/${dirlog}/logs`);
    assert.deepEqual([logs.status, logs.body.message], [409, `cannot read the stdout log file ${join(d.root, 'logs', 'taken')}: it is a directory (EISDIR)`]);
    assert.equal((await d.request('GET', `/api/v1/programs/${dirlog}/logs?source=stderr`)).status, 200, 'the other file reads as usual');
    const flush = await d.request('POST', `/api/v1/programs/${dirlog}/logs/flush`);
    assert.deepEqual([flush.status, flush.body.message], [409, `cannot empty the stdout log file ${join(d.root, 'logs', 'taken')}: it is a directory (EISDIR)`]);
    assert.equal((await d.request('PUT', `/api/v1/programs/${dirlog}`, { stdout_logfile: 'svcd.log/x' })).status, 200);
    assert.deepEqual((await d.request('GET', `/api/v1/programs/${dirlog}/logs?source=stdout`)).body, { id: dirlog, logs: [] });
    assert.equal((await d.request('POST', `/api/v1/programs/${dirlog}/logs/flush`)).status, 200);
    assert.equal((await d.request('DELETE', `/api/v1/programs/${dirlog}`)).status, 200);
  });

  test('both streams to one file (redirect_stderr, as svc import writes it): GET /logs and WS give each line once (they gave it twice, under both sources)', async () => {
    const merged = (await d.request('POST', '/api/v1/programs', { ...ticker('merged'), stdout_logfile: 'merged.log', stderr_logfile: 'merged.log' })).body.id as string;
    const c = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${merged}`);
    await c.opened;
    await eventually(() => c.messages.some((m) => m.content === 'tock 3'), 10_000, 'streamed lines');
    const logs = (await d.request('GET', `/api/v1/programs/${merged}/logs`)).body.logs as { source: string; content: string }[];
    for (const lines of [logs, c.messages]) {
      const tick3 = lines.filter((l) => l.content === 'tick 3' || l.content === 'tock 3');
      assert.deepEqual(tick3.map((l) => `${l.source} ${l.content}`).sort(), ['stdout tick 3', 'stdout tock 3'], 'once each, as stdout');
    }
    assert.ok((await d.request('GET', `/api/v1/programs/${merged}/logs?source=stderr`)).body.logs.some((l: { source: string; content: string }) => l.source === 'stderr' && l.content === 'tock 3'), 'asked for stderr: the file is its file too');
    assert.deepEqual((await d.request('POST', `/api/v1/programs/${merged}/logs/flush`)).body.flushed, [join(d.root, 'logs', 'merged.log')]);
    c.ws.close();
    assert.equal((await d.request('DELETE', `/api/v1/programs/${merged}`)).status, 200);
  });

  test('WS with an unknown id closes with 4404 and a reason', async () => {
    const c = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=00000000-0000-4000-8000-000000000000`);
    const closed = await c.closed;
    assert.equal(closed.code, 4404);
    assert.match(closed.reason, /program '00000000-0000-4000-8000-000000000000' not found/);
  });

  test('WS without ?id= or with it twice says so in the 4404 reason (it said "program \'\' not found")', async () => {
    const ws = d.url.replace(/^http/, 'ws');
    const id = (await d.request('GET', '/api/v1/programs')).body[0]?.id ?? '00000000-0000-4000-8000-000000000000';
    for (const [query, reason] of [['', '?id= is required: the program UUID'], [`?id=${id}&id=${id}`, '?id= given more than once: one program UUID per stream']]) {
      const closed = await connectWs(`${ws}/ws${query}`).closed;
      assert.deepEqual(closed, { code: 4404, reason });
    }
  });
});

describe('observability with auth_secret and enable_docs', () => {
  let d: RunningDaemon;
  const secret = 's3cret-for-tests';
  const bearer = { authorization: `Bearer ${secret}` };
  before(async () => {
    d = await startDaemon(tempRoot(), { config: `[server]\nport = 0\nenable_docs = true\nauth_secret = "${secret}"\n` });
  });
  after(async () => {
    await d.stop();
    removeRoot(d.root);
  });

  test('/metrics needs the Bearer credential', async () => {
    assert.equal((await metricsText(d)).status, 401);
    assert.equal((await metricsText(d, bearer)).status, 200);
  });

  test('openapi.json is a valid OpenAPI 3.1 document built from the program schema; /api/docs serves local assets', async () => {
    const res = await d.request('GET', '/api/v1/openapi.json'); // exempt from auth
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const result = await new Validator().validate(res.body);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.deepEqual(res.body.components.schemas.ProgramCreate.required, ['name', 'command']);
    for (const path of ['/health', '/api/v1/programs', '/api/v1/programs/{id}', '/api/v1/programs/{id}/logs', '/api/v1/programs/batch', '/api/v1/system/stats', '/api/v1/system/shutdown', '/api/v1/system/reactions', '/api/v1/system/reactions/{name}/test', '/metrics', '/ws']) {
      assert.ok(res.body.paths[path], path);
    }
    const page = await fetch(`${d.url}/api/docs`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /\/api\/docs\/swagger-ui-bundle\.js/);
    assert.doesNotMatch(html, /https?:\/\//, 'no CDN');
    const bundle = await fetch(`${d.url}/api/docs/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
    assert.ok((await bundle.arrayBuffer()).byteLength > 100_000);
  });

  test('WS needs the secret: 4401 without, lines with ?token= or the Bearer header', async () => {
    const id = (await d.request('POST', '/api/v1/programs', ticker('auth-ticker'), bearer)).body.id as string;
    const base = `${d.url.replace(/^http/, 'ws')}/ws?id=${id}`;
    const refused = await connectWs(base).closed;
    assert.equal(refused.code, 4401);
    for (const c of [connectWs(`${base}&token=${secret}`), connectWs(base, bearer)]) {
      await c.opened;
      await eventually(() => c.messages.length > 0, 10_000, 'lines with credentials');
      c.ws.close();
    }
  });
});


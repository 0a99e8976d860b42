import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, useDaemon } from '../helpers/daemon.js';

const d = useDaemon({ config: '[server]\nport = 0\nmax_body_bytes = 4096\n' });

const prog = (name: string, extra: Record<string, unknown> = {}) => ({ name, command: process.execPath, args: [fixture('forever.js')], ...extra });

test('GET /health answers without auth', async () => {
  const res = await d.request('GET', '/health');
  assert.equal(res.status, 200);
  assert.equal(res.body.status, 'ok');
});

test('create returns 201 with the UUID; list shows the summary; detail shows config.source', async () => {
  const res = await d.request('POST', '/api/v1/programs', prog('api-a', { source: 'ci:deploy' }));
  assert.equal(res.status, 201);
  assert.match(res.body.id, /^[0-9a-f-]{36}$/);
  const list = await d.request('GET', '/api/v1/programs');
  const item = list.body.find((p: { name: string }) => p.name === 'api-a');
  assert.deepEqual(Object.keys(item).sort(), ['cpu_usage', 'group_name', 'id', 'mem_usage', 'name', 'pid', 'restarts', 'started_at', 'status']);
  assert.equal(item.source, undefined, 'source is not in the list summary');
  const detail = await d.request('GET', `/api/v1/programs/${res.body.id}`);
  assert.equal(detail.body.config.source, 'ci:deploy');
  assert.equal(detail.body.state.desired, 'running');
});

test('a duplicate name is 409 with the error body', async () => {
  await d.request('POST', '/api/v1/programs', prog('dup'));
  const res = await d.request('POST', '/api/v1/programs', prog('dup'));
  assert.equal(res.status, 409);
  assert.equal(res.body.status, 'error');
  assert.match(res.body.message, /program 'dup': name: a program named 'dup' already exists/);
});

test('validation failures are 400 naming the field and the program', async () => {
  const res = await d.request('POST', '/api/v1/programs', { name: 'v', command: 'x', max_concurrent: 99 });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, { status: 'error', message: "program 'v': max_concurrent: must be <= 64" });
  const deps = await d.request('POST', '/api/v1/programs', { name: 'v', command: 'x', depends_on: ['ghost'] });
  assert.equal(deps.body.message, "program 'v': depends_on: unknown service(s): ghost");
});

test('a command line with no word or an open quote is a 400 when written (it was stored, and every start failed)', async () => {
  const blank = await d.request('POST', '/api/v1/programs', { name: 'cl-blank', command: '   ' });
  assert.equal(blank.status, 400);
  assert.equal(blank.body.message, "program 'cl-blank': command: is empty (only white space)");
  const quote = await d.request('POST', '/api/v1/programs', { name: 'cl-quote', command: 'sleep "1', autostart: false });
  assert.equal(quote.status, 400);
  assert.match(quote.body.message, /^program 'cl-quote': command: unterminated double quote/);
  const stack = await d.request('PUT', '/api/v1/stack?source=cl-test', { services: [{ name: 'cl-hook', command: 'sleep 1', hooks: { pre_start: "echo 'x" } }] });
  assert.equal(stack.status, 400);
  assert.match(stack.body.message, /services\[0\] \(name=cl-hook\): hooks\.pre_start: unterminated single quote/);
  const names = (await d.request('GET', '/api/v1/programs')).body.map((p: { name: string }) => p.name);
  assert.deepEqual(names.filter((n: string) => n.startsWith('cl-')), [], 'nothing was created');
});

test('JSON syntax errors and unknown fields carry JSON line N column M', async () => {
  const syntax = await d.request('POST', '/api/v1/programs', '{"name": "j",\n "command": }');
  assert.equal(syntax.status, 400);
  assert.equal(syntax.body.message, 'JSON line 2 column 13: value expected');
  const unknown = await d.request('POST', '/api/v1/programs', '{"name": "j",\n "command": "x",\n   "restart": true}');
  assert.equal(unknown.body.message, "program 'j': restart: unknown field at JSON line 3 column 4");
});

test('an oversized body is 413 with the error body', async () => {
  const res = await d.request('POST', '/api/v1/programs', { name: 'big', command: 'x', env: { BIG: 'x'.repeat(8000) } });
  assert.equal(res.status, 413);
  assert.match(res.body.message, /larger than 4096 bytes/);
});

test('unknown routes and unknown ids are 404 with the error body', async () => {
  const route = await d.request('GET', '/api/v1/nothing');
  assert.equal(route.status, 404);
  assert.equal(route.body.status, 'error');
  const id = await d.request('GET', '/api/v1/programs/00000000-0000-4000-8000-000000000000');
  assert.equal(id.status, 404);
  const byName = await d.request('GET', '/api/v1/programs/api-a');
  assert.match(byName.body.message, /takes the program UUID/);
  // Every route with a program in its path says the same (flush, OTA and events too).
  for (const [method, path] of [['POST', '/logs/flush'], ['GET', '/ota'], ['GET', '/events'], ['GET', '/logs']] as const) {
    const res = await d.request(method, `/api/v1/programs/api-a${path}`);
    assert.equal(res.status, 404, path);
    assert.equal(res.body.message, "program 'api-a' not found (the path takes the program UUID, not its name)", path);
  }
  // /programs/batch takes POST only: other methods are a 405, not "program 'batch' not found".
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await fetch(`${d.url}/api/v1/programs/batch`, { method, headers: { 'content-type': 'application/json' }, body: method === 'PUT' ? '{}' : undefined });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.deepEqual(await res.json(), { status: 'error', message: `method ${method} not allowed on /api/v1/programs/batch` });
  }
});

test('update changes only present fields, 200; update of an unknown id is 400', async () => {
  const { body } = await d.request('POST', '/api/v1/programs', prog('upd', { env_file: 'x.env', source: 'cli:add', autostart: false }));
  const res = await d.request('PUT', `/api/v1/programs/${body.id}`, { stopsecs: 3, env_file: '', source: '' });
  assert.equal(res.status, 200);
  assert.equal(res.body.config.stopsecs, 3);
  assert.equal(res.body.config.env_file, undefined);
  assert.equal(res.body.config.source, undefined);
  assert.equal(res.body.config.autostart, false);
  const missing = await d.request('PUT', '/api/v1/programs/00000000-0000-4000-8000-000000000000', { stopsecs: 1 });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.status, 'error');
  assert.equal(missing.body.message, "id: program '00000000-0000-4000-8000-000000000000' not found");
  const byName = await d.request('PUT', '/api/v1/programs/upd', { stopsecs: 1 });
  assert.equal(byName.status, 400);
  assert.equal(byName.body.message, "id: program 'upd' not found (the path takes the program UUID, not its name)", 'the same hint as GET and DELETE');
  const bad = await d.request('PUT', `/api/v1/programs/${body.id}`, { autorestart: 'sometimes' });
  assert.equal(bad.body.message, "program 'upd': autorestart: must be one of 'unexpected', 'true', 'false'");
});

test('DELETE removes a program (its process is stopped)', async () => {
  const { body } = await d.request('POST', '/api/v1/programs', prog('del'));
  const res = await d.request('DELETE', `/api/v1/programs/${body.id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.status, 'Removed');
  assert.equal((await d.request('GET', `/api/v1/programs/${body.id}`)).status, 404);
});

test('bulk create takes an array and is all-or-nothing', async () => {
  const bad = await d.request('POST', '/api/v1/programs', [prog('bulk1'), { name: 'bulk2' }]);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.message, '[1] (name=bulk2): command: is required');
  const names = (await d.request('GET', '/api/v1/programs')).body.map((p: { name: string }) => p.name);
  assert.ok(!names.includes('bulk1'));
  const ok = await d.request('POST', '/api/v1/programs', [prog('bulk1', { autostart: false }), prog('bulk2', { autostart: false })]);
  assert.equal(ok.status, 201);
  assert.equal(ok.body.ids.length, 2);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, fixture, useDaemon } from '../helpers/daemon.js';

const d = useDaemon();

const FOREVER = fixture('forever.js');
const svc = (name: string, extra: Record<string, unknown> = {}) => ({ name, command: process.execPath, args: [FOREVER], ...extra });
const put = (body: unknown, query = '', type?: string) => d.request('PUT', `/api/v1/stack${query}`, body, type ? { 'content-type': type } : {});
const programs = async () => (await d.request('GET', '/api/v1/programs')).body as { name: string; status: string; pid: number | null; id: string }[];
const byName = async (name: string) => (await programs()).find((p) => p.name === name);
/** An apply answer with its plan id checked for form and left out (it depends on the programs). */
const planless = (body: { plan?: unknown }) => {
  const { plan, ...rest } = body;
  assert.match(String(plan), /^[0-9a-f]{16}$/);
  return rest;
};

test('JSON stack: created, then unchanged; new programs run; source is stack:api', async () => {
  const stack = { services: [svc('j-web'), svc('j-db'), svc('j-api', { depends_on: ['j-db'] })] };
  const first = await put(stack);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual(planless(first.body), { status: 'ok', dry_run: false, source: 'stack:api', lines: ['created j-web', 'created j-db', 'created j-api'] });
  await eventually(async () => (await programs()).filter((p) => p.name.startsWith('j-') && p.status === 'Running').length === 3, 15_000, 'all running');
  const again = await put(stack);
  assert.deepEqual(again.body.lines, ['unchanged j-web', 'unchanged j-db', 'unchanged j-api']);
  const detail = await d.request('GET', `/api/v1/programs/${(await byName('j-web'))!.id}`);
  assert.equal(detail.body.config.source, 'stack:api');
});

test('a process-field change restarts the running program; prune removes what the stack dropped', async () => {
  const before = (await byName('j-web'))!.pid;
  const res = await put({ prune: true, services: [svc('j-web', { env: { V: '2' } }), svc('j-db')] });
  assert.deepEqual(res.body.lines, ['updated j-web (restart)', 'unchanged j-db', 'pruned j-api']);
  await eventually(async () => {
    const p = await byName('j-web');
    return p?.status === 'Running' && p.pid !== before;
  }, 15_000, 'j-web restarted with a new pid');
  await eventually(async () => !(await byName('j-api')), 15_000, 'j-api removed');
});

test('TOML and YAML bodies by Content-Type; ?source= labels them', async () => {
  const toml = `[[services]]\nname = "t-one"\ncommand = "${process.execPath}"\nargs = ["${FOREVER}"]\nautostart = false\n`;
  const res = await put(toml, '?source=stack:t.toml', 'application/toml');
  assert.deepEqual(planless(res.body), { status: 'ok', dry_run: false, source: 'stack:t.toml', lines: ['created t-one'] });
  const yaml = `services:\n  - name: y-one\n    command: ${process.execPath}\n    args: ["${FOREVER}"]\n    autostart: false\n`;
  for (const type of ['application/yaml', 'application/x-yaml', 'text/yaml']) {
    const y = await put(yaml, '', type);
    assert.equal(y.status, 200, type);
  }
  assert.equal((await byName('y-one'))?.status, 'Stopped');
});

test('each error format: TOML path:line:col, JSON line/column, YAML line and column, service index and field', async () => {
  const toml = await put('[[services]]\nname = "x"\ncommand = \n', '', 'text/toml');
  assert.equal(toml.status, 400);
  assert.match(toml.body.message, /^stack\.toml:3:\d+: /);
  const json = await put('{"services": [}');
  assert.match(json.body.message, /^JSON line 1 column 15: /);
  const yaml = await put('services:\n  - name: [\n', '', 'application/yaml');
  assert.match(yaml.body.message, /^stack\.yaml:\d+:\d+: /);
  const field = await put({ services: [svc('ok'), svc('bad', { max_concurrent: 99 })] });
  assert.deepEqual(field.body, { status: 'error', message: 'services[1] (name=bad): max_concurrent: must be <= 64' });
  const dup = await put({ services: [svc('d1'), svc('d1')] });
  assert.match(dup.body.message, /^services\[1\] \(name=d1\): name: duplicate of services\[0\]/);
  const other = await put('x', '', 'text/plain');
  assert.match(other.body.message, /^Content-Type: /);
});

test('a bad stack changes nothing', async () => {
  const beforeList = (await programs()).map((p) => p.name).sort();
  const res = await put({ prune: true, services: [svc('new-one'), svc('j-web', { command: 'changed' }), svc('broken', { depends_on: ['ghost'] })] });
  assert.equal(res.status, 400);
  assert.equal(res.body.message, 'services[2] (name=broken): depends_on: unknown service(s): ghost');
  assert.deepEqual((await programs()).map((p) => p.name).sort(), beforeList);
  const web = await d.request('GET', `/api/v1/programs/${(await byName('j-web'))!.id}`);
  assert.equal(web.body.config.command, process.execPath);
});

test('dry_run reports the plan and changes nothing', async () => {
  const beforeList = (await programs()).map((p) => p.name).sort();
  // No ?source=: the stack is the whole desired state, so t-one (stack:t.toml) would go too.
  const res = await put({ prune: true, services: [svc('j-web', { env: { V: '3' } }), svc('dry-new')] }, '?dry_run=true');
  assert.deepEqual(planless(res.body), { status: 'ok', dry_run: true, source: 'stack:api', lines: ['updated j-web (restart)', 'created dry-new', 'pruned j-db', 'pruned t-one', 'pruned y-one'] });
  assert.deepEqual((await programs()).map((p) => p.name).sort(), beforeList);
});

test('?plan= applies the plan a dry run answered, and only that one: 409 (nothing changed) once a program it names changed; 400 for a malformed id', async () => {
  const stack = { services: [svc('plan-web', { autostart: false }), svc('plan-db', { autostart: false, priority: 4 })] };
  const dry = await put(stack, '?source=stack:plan.json&dry_run=true');
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  const created = await d.request('POST', '/api/v1/programs', svc('plan-db', { autostart: false }));
  assert.equal(created.status, 201);
  const stale = await put(stack, `?source=stack:plan.json&plan=${dry.body.plan}`);
  assert.equal(stale.status, 409);
  assert.match(stale.body.message, /^plan: the plan is [0-9a-f]{16} now, not [0-9a-f]{16} /);
  assert.equal(await byName('plan-web'), undefined, 'nothing was created');
  const again = await put(stack, '?source=stack:plan.json&dry_run=true');
  const applied = await put(stack, `?source=stack:plan.json&plan=${again.body.plan}`);
  assert.equal(applied.status, 200, JSON.stringify(applied.body));
  assert.deepEqual(applied.body.lines, ['created plan-web', 'updated plan-db']);
  assert.equal(applied.body.plan, again.body.plan);
  const bad = await put(stack, '?source=stack:plan.json&plan=HEAD');
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^plan: must be the 16-hex-digit plan id a dry run answered/);
});

test('a program added by the API is not pruned by a stack with another source', async () => {
  const created = await d.request('POST', '/api/v1/programs', svc('by-api', { autostart: false }));
  assert.equal(created.status, 201);
  const res = await put({ prune: true, services: [] }, '?source=stack:t.toml');
  assert.deepEqual(res.body.lines, ['pruned t-one']);
  assert.ok(await byName('by-api'));
});

test('?prune=false overrides prune = true in the stack (it pruned anyway); ?prune=true overrides prune = false', async () => {
  const q = '?source=stack:pf.json';
  const created = await put({ services: [svc('pf-a', { autostart: false }), svc('pf-b', { autostart: false })] }, q);
  assert.deepEqual(created.body.lines, ['created pf-a', 'created pf-b']);
  const kept = await put({ prune: true, services: [svc('pf-a', { autostart: false })] }, `${q}&prune=false`);
  assert.equal(kept.status, 200, JSON.stringify(kept.body));
  assert.deepEqual(kept.body.lines, ['unchanged pf-a']);
  assert.ok(await byName('pf-b'), 'pf-b was not pruned');
  const pruned = await put({ prune: false, services: [svc('pf-a', { autostart: false })] }, `${q}&prune=true`);
  assert.deepEqual(pruned.body.lines, ['unchanged pf-a', 'pruned pf-b']);
  assert.equal(await byName('pf-b'), undefined);
});

test('export round-trips: GET /stack re-applied is all unchanged', async () => {
  const exported = await d.request('GET', '/api/v1/stack');
  assert.equal(exported.body.prune, false);
  assert.ok(exported.body.services.length >= 3);
  const res = await put(exported.body, '?source=stack:export.json');
  assert.equal(res.status, 200);
  assert.ok(res.body.lines.every((l: string) => l.startsWith('unchanged ')), res.body.lines.join(', '));
});

test('a prune of a program another stack still needs is refused, by a dry run as by the apply, naming who needs it', async () => {
  assert.equal((await put({ services: [svc('need-db', { autostart: false })] }, '?source=ci-a')).status, 200);
  assert.equal((await put({ services: [svc('need-web', { autostart: false, depends_on: ['need-db'] })] }, '?source=ci-b')).status, 200);
  const expected = "program 'need-db': cannot prune: required by 'need-web' (ci-b) (depends_on), which this apply keeps; list 'need-db' in the stack, or remove the dependency first";
  for (const query of ['?source=ci-a&prune=true&dry_run=true', '?source=ci-a&prune=true']) {
    const res = await put({ services: [] }, query);
    assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.message, expected, query);
  }
  assert.ok(await byName('need-db'), 'nothing was pruned');
});

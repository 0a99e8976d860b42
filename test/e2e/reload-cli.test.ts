import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, eventually, useDaemon } from '../helpers/daemon.js';
import { svcAgainst } from '../helpers/cli.js';

/** `svc reload` (docs/cli.md, docs/reload.md): what a user types and reads. */
const d = useDaemon();
const svc = svcAgainst(d);

const check = { type: 'exec', command: process.execPath, args: [fixture('reload-ready.js')], interval_secs: 0.5, timeout_secs: 2, failure_threshold: 2 };

async function create(name: string, withCheck: boolean, group = 'site'): Promise<string> {
  const dir = mkdtempSync(join(d.root, `${name}-`));
  const body = { name, group_name: group, command: process.execPath, args: [fixture('reload-server.js'), '100'], cwd: dir, stopsecs: 5, ...(withCheck ? { health_check: check } : {}) };
  const res = await d.request('POST', '/api/v1/programs', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await eventually(async () => (await d.request('GET', `/api/v1/programs/${res.body.id}`)).body.status === (withCheck ? 'Healthy' : 'Running'), 15_000, `${name} up`);
  return dir;
}

test('svc reload NAME: the new process takes over, the CLI says who; info shows the last reload', async () => {
  await create('web', true);
  const res = await svc('reload', 'web');
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /web\s+ok\s+Healthy\s+\d+/);
  assert.match(res.stdout, /web: pid \d+ is Healthy and took over from pid \d+/);
  const info = await svc('info', 'web');
  assert.match(info.stdout, /last reload: reloaded: pid \d+ is Healthy and took over/);
});

test('svc reload of a program without a health check restarts it and says so; --json carries the note', async () => {
  await create('plain', false, 'other');
  const res = await svc('reload', 'plain');
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /plain: no health check: restarted, with downtime/);
  const json = await svc('--json', 'reload', 'plain');
  assert.equal(json.code, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout)[0].note, 'no health check: restarted, with downtime');
});

test('svc reload of a new process that never becomes Healthy: exit 1, the reason, the old one keeps running', async () => {
  const dir = await create('stuck', true);
  writeFileSync(join(dir, 'broken'), '');
  const before = (await svc('--json', 'status', 'stuck')).stdout;
  const oldPid = JSON.parse(before).pid as number;
  const res = await svc('reload', 'stuck');
  assert.equal(res.code, 1, res.stdout);
  assert.match(res.stdout, /reload failed: pid \d+ is Unhealthy .*; pid \d+ keeps running/);
  const after = JSON.parse((await svc('--json', 'status', 'stuck')).stdout);
  assert.equal(after.pid, oldPid);
  assert.equal(after.status, 'Healthy');
  const events = await svc('events', 'stuck');
  assert.match(events.stdout, /reload_failed/);
});

test('svc reload GROUP:* and all; no argument is a usage error', async () => {
  const group = await svc('reload', 'site:*');
  assert.match(group.stdout, /web\s+ok/);
  assert.doesNotMatch(group.stdout, /plain/);
  const all = await svc('--json', 'reload', 'all');
  assert.deepEqual(JSON.parse(all.stdout).map((r: { name: string }) => r.name).sort(), ['plain', 'stuck', 'web']);
  const usage = await svc('reload');
  assert.equal(usage.code, 2);
});

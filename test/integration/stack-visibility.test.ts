import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, useDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

// Watched stack files: a refused file is visible where people look (svc list, svc stack status,
// the event history, /metrics), and a file owns its programs without prune = true.
const d = useDaemon();
const svc = (name: string) => `[[services]]\nname = "${name}"\ncommand = "sleep 1000"\nautostart = false\n`;
const file = (name: string, text: string) => {
  mkdirSync(join(d.root, 'stacks'), { recursive: true });
  writeFileSync(join(d.root, 'stacks', name), text);
};
const names = async () => ((await d.request('GET', '/api/v1/programs')).body as { name: string }[]).map((p) => p.name).sort();
const fileState = async (name: string) => ((await d.request('GET', '/api/v1/stack/status')).body.files as { file: string; state: string; message: string | null }[]).find((f) => f.file === name);

test('removing a service from a watched file removes its program, without prune = true', async () => {
  file('own.toml', svc('v-a') + svc('v-b'));
  await eventually(async () => (await names()).includes('v-b'), 15_000, 'v-a and v-b created');
  file('own.toml', svc('v-a'));
  await eventually(async () => !(await names()).includes('v-b'), 15_000, 'v-b removed');
  assert.ok((await names()).includes('v-a'));
});

test('a refused watched file: banner in svc list, path:line:col in svc stack status, a stack event, a metric', async () => {
  file('bad.toml', svc('v-c'));
  await eventually(async () => (await fileState('bad.toml'))?.state === 'ok', 15_000, 'bad.toml applied');
  assert.equal((await runCli(['--url', d.url, 'list'])).stderr, '', 'no banner while all is well');
  file('bad.toml', `${svc('v-c')}[[services]]\nname = "v-d"\ncommand = \n`);
  await eventually(async () => (await fileState('bad.toml'))?.state === 'error', 15_000, 'bad.toml refused');
  const list = await runCli(['--url', d.url, 'list']);
  assert.equal(list.code, 0);
  assert.match(list.stderr, /^warning: 1 stack source refused, the last good state keeps running: stack:bad\.toml: bad\.toml:7:\d+: .*; see svc stack status\n$/);
  assert.match(list.stdout, /v-c/);
  const status = await runCli(['--url', d.url, 'stack', 'status']);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^ {2}bad\.toml {2}error /m);
  assert.match(status.stdout, /^ {4}bad\.toml:7:\d+: /m);
  assert.match(status.stdout, /^ {2}own\.toml {2}ok /m);
  // The history is written behind the stack status: wait for the record.
  const recorded = async (type: string, pattern: RegExp) => eventually(async () => pattern.test(JSON.stringify((await d.request('GET', `/api/v1/events?event_type=${type}&limit=1000`)).body)), 5000, `${type} recorded`);
  await recorded('stack_apply_failed', /stack:bad\.toml: refused, the last good state keeps running: bad\.toml:7:/);
  const metrics = await (await fetch(`${d.url}/metrics`)).text();
  assert.match(metrics, /^svc_stack_file_error\{file="bad\.toml"\} 1$/m);
  assert.match(metrics, /^svc_stack_file_error\{file="own\.toml"\} 0$/m);
  // Fixed: the banner goes, the metric drops, and the apply is recorded.
  file('bad.toml', svc('v-c') + svc('v-d'));
  await eventually(async () => (await fileState('bad.toml'))?.state === 'ok', 15_000, 'bad.toml fixed');
  assert.equal((await runCli(['--url', d.url, 'list'])).stderr, '');
  assert.match(await (await fetch(`${d.url}/metrics`)).text(), /^svc_stack_file_error\{file="bad\.toml"\} 0$/m);
  await recorded('stack_applied', /stack:bad\.toml: created v-d/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { eventually, useDaemon } from '../../helpers/daemon.js';

/**
 * Spec, "What the service does" 5: "It applies a declarative stack (a list of program
 * definitions) and converges live state to it, optionally pruning programs that are not listed."
 * docs/stacks.md, Prune: without ?source= the request is the whole desired state; a watched file,
 * `svc apply FILE` and a request with ?source= prune only their own programs.
 */
const d = useDaemon();

const idle = (name: string, extra: Record<string, unknown> = {}) => ({ name, command: 'true', autostart: false, ...extra });
const toml = (...names: string[]) => names.map((n) => `[[services]]\nname = "${n}"\ncommand = "true"\nautostart = false\n`).join('\n');
const put = (body: unknown, query = '') => d.request('PUT', `/api/v1/stack${query}`, body);
const names = async () => ((await d.request('GET', '/api/v1/programs')).body as { name: string }[]).map((p) => p.name).sort();
const detail = async (name: string) => {
  const list = (await d.request('GET', '/api/v1/programs')).body as { name: string; id: string }[];
  const found = list.find((p) => p.name === name);
  return found ? ((await d.request('GET', `/api/v1/programs/${found.id}`)).body as { config: { source?: string } }) : undefined;
};
const cli = (...args: string[]) => runCli(args, { SVC_URL: d.url });

test('a stack with ?source=, `svc apply FILE --prune` and a watched stack file prune only their own programs', async () => {
  assert.equal((await d.request('POST', '/api/v1/programs', idle('by-hand', { source: 'cli:add' }))).status, 201);
  // ?source=: scoped.
  assert.deepEqual((await put({ services: [idle('ci-a'), idle('ci-b')] }, '?source=stack:ci.toml')).body.lines, ['created ci-a', 'created ci-b']);
  assert.deepEqual((await put({ prune: true, services: [idle('ci-a')] }, '?source=stack:ci.toml')).body.lines, ['unchanged ci-a', 'pruned ci-b']);
  // svc apply FILE: scoped to stack:<file>.
  const work = mkdtempSync(join(tmpdir(), 'svc-prune-'));
  try {
    writeFileSync(join(work, 'team.toml'), toml('team-a', 'team-b'));
    assert.equal((await cli('apply', join(work, 'team.toml'))).code, 0);
    writeFileSync(join(work, 'team.toml'), toml('team-a'));
    const applied = await cli('apply', join(work, 'team.toml'), '--prune');
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual(applied.stdout.trim().split('\n'), ['= unchanged team-a', '- pruned team-b']);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // A watched file with prune = true: scoped to stack:<file>.
  const file = join(d.root, 'stacks', 'watched.toml');
  writeFileSync(file, toml('w-a', 'w-b'));
  await eventually(async () => (await names()).includes('w-b'), 15_000, 'watched file applied');
  writeFileSync(file, `prune = true\n${toml('w-a')}`);
  await eventually(async () => !(await names()).includes('w-b'), 15_000, 'w-b pruned by its file');
  assert.deepEqual(await names(), ['by-hand', 'ci-a', 'team-a', 'w-a'], 'each scoped prune removed only its own program');
});

test('a stack that lists a program created elsewhere takes it over: its source becomes the stack\'s, and a later scoped prune removes it', async () => {
  assert.equal((await d.request('POST', '/api/v1/programs', idle('adopt-me', { source: 'cli:add' }))).status, 201);
  const dry = await put({ services: [idle('adopt-me')] }, '?source=stack:team.toml&dry_run=true');
  assert.deepEqual(dry.body.lines, ['updated adopt-me']);
  assert.equal((await detail('adopt-me'))?.config.source, 'cli:add', 'a dry run writes nothing');
  assert.deepEqual((await put({ services: [idle('adopt-me')] }, '?source=stack:team.toml')).body.lines, ['updated adopt-me']);
  assert.equal((await detail('adopt-me'))?.config.source, 'stack:team.toml', 'taken over');
  // The watched file takes over a program too.
  const file = join(d.root, 'stacks', 'watched.toml');
  writeFileSync(file, `prune = true\n${toml('w-a', 'by-hand')}`);
  await eventually(async () => (await detail('by-hand'))?.config.source === 'stack:watched.toml', 15_000, 'by-hand taken over by watched.toml');
  // Stop listing them: the owners' scoped prunes remove them.
  assert.deepEqual((await put({ prune: true, services: [] }, '?source=stack:team.toml')).body.lines, ['pruned adopt-me', 'pruned team-a']);
  writeFileSync(file, `prune = true\n${toml('w-a')}`);
  await eventually(async () => !(await names()).includes('by-hand'), 15_000, 'by-hand pruned by the file that took it over');
});

test('PUT /api/v1/stack with prune = true and no ?source= prunes every program the stack does not list; the dry run shows exactly what will go', async () => {
  assert.equal((await d.request('POST', '/api/v1/programs', idle('manual', { source: 'cli:add' }))).status, 201);
  assert.equal((await d.request('POST', '/api/v1/programs', idle('unlabelled'))).status, 201);
  const before = await names();
  assert.deepEqual(before, ['ci-a', 'manual', 'unlabelled', 'w-a']);
  const stack = { prune: true, services: [idle('ci-a'), idle('fresh')] };
  const dry = await put(stack, '?dry_run=true');
  assert.match(dry.body.plan, /^[0-9a-f]{16}$/);
  assert.deepEqual({ ...dry.body, plan: undefined }, { status: 'ok', dry_run: true, source: 'stack:api', plan: undefined, lines: ['updated ci-a', 'created fresh', 'pruned manual', 'pruned unlabelled', 'pruned w-a'] });
  assert.deepEqual(await names(), before, 'the dry run changed nothing');
  const res = await put(stack);
  assert.deepEqual(res.body.lines, dry.body.lines, 'the apply did what the dry run showed');
  await eventually(async () => JSON.stringify(await names()) === JSON.stringify(['ci-a', 'fresh']), 15_000, 'only the listed programs remain');
  assert.equal((await detail('ci-a'))?.config.source, 'stack:api');
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, removeRoot, fixture, eventually, tempRoot, type RunningDaemon } from '../helpers/daemon.js';

const FOREVER = fixture('forever.js');
const svc = (name: string, extra = '') => `[[services]]\nname = "${name}"\ncommand = "${process.execPath}"\nargs = ["${FOREVER}"]\n${extra}`;

let d: RunningDaemon;
let dir: string;
before(async () => {
  const root = tempRoot();
  dir = join(root, 'stacks');
  mkdirSync(join(dir, 'lib'), { recursive: true });
  // Present at start: applied at boot, with an include from a sub-folder.
  writeFileSync(join(dir, 'lib', 'common.toml'), svc('w-common'));
  writeFileSync(join(dir, 'boot.toml'), `include = ["lib/common.toml"]\n${svc('w-boot')}`);
  d = await startDaemon(root);
});
after(async () => {
  await d.stop();
  removeRoot(d.root);
});

type Status = { files: { file: string; state: string; message: string | null; lines: string[] }[]; watching: boolean };
const status = async () => (await d.request('GET', '/api/v1/stack/status')).body as Status;
const fileStatus = async (file: string) => (await status()).files.find((f) => f.file === file);
const programs = async () => (await d.request('GET', '/api/v1/programs')).body as { name: string; status: string; id: string }[];
const named = async (name: string) => (await programs()).find((p) => p.name === name);
const sourceOf = async (name: string) => (await d.request('GET', `/api/v1/programs/${(await named(name))!.id}`)).body.config.source as string;

test('files present at start are applied; included services carry include:<file>', async () => {
  await eventually(async () => (await named('w-boot'))?.status === 'Running' && (await named('w-common'))?.status === 'Running', 15_000, 'boot stack running');
  assert.equal(await sourceOf('w-boot'), 'stack:boot.toml');
  assert.equal(await sourceOf('w-common'), 'include:lib/common.toml');
  assert.equal((await status()).watching, true);
  // The file's status is recorded once its apply has returned, which may be just after its programs run.
  await eventually(async () => (await fileStatus('boot.toml'))?.state === 'ok', 5_000, 'boot.toml recorded as ok');
  assert.equal(await fileStatus('lib/common.toml'), undefined, 'sub-folders are not applied on their own');
});

test('adding and changing a file applies it; editor swap files are ignored', async () => {
  writeFileSync(join(dir, '.app.toml.swp'), 'garbage');
  writeFileSync(join(dir, 'app.toml~'), 'garbage');
  // An editor-style atomic save: write a temp file, rename it over the target.
  writeFileSync(join(dir, 'app.tmp'), svc('w-app'));
  renameSync(join(dir, 'app.tmp'), join(dir, 'app.toml'));
  await eventually(async () => (await named('w-app'))?.status === 'Running', 15_000, 'w-app running');
  writeFileSync(join(dir, 'app.toml'), svc('w-app') + svc('w-app2', 'autostart = false\n'));
  await eventually(async () => (await fileStatus('app.toml'))?.lines.includes('created w-app2'), 15_000, 'second apply');
  assert.deepEqual((await status()).files.map((f) => f.file).sort(), ['app.toml', 'boot.toml']);
});

test('a broken file is reported and leaves the last good state running', async () => {
  writeFileSync(join(dir, 'app.toml'), '[[services]]\nname = "w-app"\ncommand = \n');
  await eventually(async () => (await fileStatus('app.toml'))?.state === 'error', 15_000, 'error status');
  assert.match((await fileStatus('app.toml'))!.message!, /^app\.toml:3:\d+: /);
  assert.equal((await named('w-app'))?.status, 'Running');
  assert.ok(await named('w-app2'));
  assert.ok(d.stderr.some((l) => l.includes('stack file refused')), 'logged');
});

test('deleting a file prunes what it created (and nothing else)', async () => {
  rmSync(join(dir, 'app.toml'));
  await eventually(async () => !(await named('w-app')) && !(await named('w-app2')), 15_000, 'app programs pruned');
  assert.equal((await fileStatus('app.toml'))?.state, 'removed');
  assert.ok(await named('w-boot'));
  assert.ok(await named('w-common'));
});

test('a file owns what it lists whatever source its services set (svc export writes each program\'s own): edited out, or the file deleted, they are pruned', async () => {
  const file = join(dir, 'exported.toml');
  writeFileSync(file, svc('w-exp1', 'source = "cli:add"\n') + svc('w-exp2', 'source = ""\n'));
  await eventually(async () => (await fileStatus('exported.toml'))?.state === 'ok', 15_000, 'exported.toml applied');
  assert.equal(await sourceOf('w-exp1'), 'stack:exported.toml');
  assert.equal(await sourceOf('w-exp2'), 'stack:exported.toml');
  writeFileSync(file, svc('w-exp1', 'source = "cli:add"\n'));
  await eventually(async () => !(await named('w-exp2')), 15_000, 'a service edited out of the file is pruned');
  rmSync(file);
  await eventually(async () => !(await named('w-exp1')), 15_000, 'the file deleted: its programs are pruned');
});

test('an included file is watched: editing it, replacing it by a rename or deleting and writing it again applies the file that includes it', async () => {
  const common = join(dir, 'lib', 'common.toml');
  const commandOf = async (name: string) => (await d.request('GET', `/api/v1/programs/${(await named(name))!.id}`)).body.config.command as string;
  await eventually(async () => (await fileStatus('boot.toml'))?.state === 'ok', 15_000, 'boot.toml applied');
  writeFileSync(common, '[[services]]\nname = "w-common"\ncommand = "/bin/sleep 1001"\n');
  await eventually(async () => (await commandOf('w-common')) === '/bin/sleep 1001', 15_000, 'edit in place applied');
  writeFileSync(join(dir, 'lib', '.common.toml.tmp'), '[[services]]\nname = "w-common"\ncommand = "/bin/sleep 1002"\n');
  renameSync(join(dir, 'lib', '.common.toml.tmp'), common);
  await eventually(async () => (await commandOf('w-common')) === '/bin/sleep 1002', 15_000, 'replaced by a rename: applied');
  rmSync(common);
  await eventually(async () => (await fileStatus('boot.toml'))?.state === 'error', 15_000, 'a missing include refuses the file');
  // Named at its place in boot.toml, as every other problem of a file is (svc stack status).
  assert.equal((await fileStatus('boot.toml'))?.message, 'boot.toml:1:1: include: lib/common.toml: cannot read: ENOENT');
  assert.ok(await named('w-common'), 'the last good state keeps running');
  writeFileSync(common, svc('w-common'));
  await eventually(async () => (await fileStatus('boot.toml'))?.state === 'ok' && (await commandOf('w-common')) === process.execPath, 15_000, 'written again: applied');
});

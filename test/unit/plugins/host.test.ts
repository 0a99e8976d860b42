import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLUGIN_CATALOG } from '../../../plugins/host/catalog.js';
import { discoverPlugins } from '../../../plugins/host/discover.js';
import { openPluginLibrary } from '../../../plugins/host/open-library.js';
import { probePlugins } from '../../../plugins/host/probe.js';
import { fixturePlugin, SECURITY_SO } from '../../helpers/native.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-host-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const security = PLUGIN_CATALOG.security;
const build = (fixture: string, name = 'security') => fixturePlugin(fixture, join(dir, fixture), name);

test('a library built for another ABI is refused by file name', () => {
  const file = build('bad-abi');
  assert.throws(() => openPluginLibrary(file, security), (err: Error) => err.message === `${file}: plugin ABI 2, but this svcd speaks ABI 1; rebuild it (npm run build) and reinstall it (svc plugins install)`);
});

test('a missing export is refused by file name and symbol', () => {
  const file = build('no-authenticate');
  assert.throws(() => openPluginLibrary(file, security), new RegExp(`^PluginError: ${file}: missing export authenticate \\(required by the security plugin\\)`));
});

test('a library without the ABI, or named for another plugin, is refused', () => {
  assert.throws(() => openPluginLibrary(build('not-a-plugin'), security), /missing export svc_plugin_abi \(not an svc plugin/);
  assert.throws(() => openPluginLibrary(build('wrong-name'), security), /says it is plugin 'notify', but the file is named for 'security'/);
  const junk = join(dir, 'junk.so');
  writeFileSync(junk, 'not an ELF file');
  assert.throws(() => openPluginLibrary(junk, security), new RegExp(`^PluginError: ${junk}: cannot be loaded: `));
});

test('a library built for another architecture is refused as such, not as a missing file', { skip: process.platform !== 'linux' }, () => {
  const foreign = join(dir, 'foreign', 'security.so');
  mkdirSync(join(dir, 'foreign'));
  const elf = readFileSync(SECURITY_SO);
  const [machine, name] = process.arch === 'arm64' ? [62, 'x86-64'] : [183, 'AArch64 \\(arm64\\)'];
  elf.writeUInt16LE(machine, 18); // e_machine of a little-endian ELF header
  writeFileSync(foreign, elf);
  assert.throws(() => openPluginLibrary(foreign, security), new RegExp(`^PluginError: ${foreign}: cannot be loaded: it is built for ${name}, but this svcd runs on ${process.arch}; build it on this machine`));
});

test('a symbolic link whose library is gone is refused saying so', () => {
  const link = join(dir, 'dangling', 'security.so');
  mkdirSync(join(dir, 'dangling'));
  symlinkSync(join(dir, 'dangling', 'removed.so'), link);
  assert.throws(() => openPluginLibrary(link, security), new RegExp(`^PluginError: ${link}: cannot be loaded: it is a symbolic link to ${dir}/dangling/removed\\.so, which does not exist$`));
});

test('the probe names a library that crashes at load, and still checks the others', () => {
  const crash = build('crash-at-load');
  const abi = build('bad-abi');
  const results = probePlugins([crash, SECURITY_SO, abi]);
  assert.deepEqual(results.map((r) => [r.file, r.ok]), [[crash, false], [SECURITY_SO, true], [abi, false]]);
  const first = results[0];
  assert.ok(first && !first.ok);
  assert.match(first.message, new RegExp(`^${crash}: crashed while loading \\((SIGSEGV|exit status \\d+)\\)$`));
  const good = results[1];
  assert.ok(good?.ok);
  assert.equal(good.name, 'security');
});

test('a library that hangs while loading, ignoring SIGTERM, is ended and named, and the probe goes on', { timeout: 120_000 }, () => {
  const hang = build('hang-at-load', 'notify');
  const results = probePlugins([hang, SECURITY_SO], { timeoutMs: 10_000 });
  assert.deepEqual(results.map((r) => [r.file, r.ok]), [[hang, false], [SECURITY_SO, true]]);
  const first = results[0];
  assert.ok(first && !first.ok);
  assert.equal(first.message, `${hang}: did not finish loading within 10 s`);
});

test('what a library prints while loading is not taken for the probe report', () => {
  const chatty = build('chatty-at-load', 'notify');
  const results = probePlugins([chatty, SECURITY_SO]);
  assert.deepEqual(results, [
    { file: chatty, ok: false, message: `${chatty}: missing export notify_bucket_take (required by the notify plugin)` },
    { file: SECURITY_SO, ok: true, name: 'security', version: '1.0.0' },
  ]);
});

test('discovery lists <name>.so files, sorted, and nothing when the directory is absent', () => {
  const plugins = join(dir, 'discover');
  build('wrong-name', 'zeta');
  assert.deepEqual(discoverPlugins(join(dir, 'absent')), []);
  fixturePlugin('wrong-name', plugins, 'notify');
  fixturePlugin('wrong-name', plugins, 'alpha');
  writeFileSync(join(plugins, 'README'), 'not a library');
  writeFileSync(join(plugins, '.so'), '');
  assert.deepEqual(discoverPlugins(plugins).map((p) => p.name), ['alpha', 'notify']);
});

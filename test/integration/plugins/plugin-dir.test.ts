// What svcd does with an odd plugin directory, against a real svcd.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, startDaemon, tempRoot, writeConfig } from '../../helpers/daemon.js';
import { installPlugins, licensedRoot, testSigner } from '../../helpers/license.js';
import { runRefused } from '../../helpers/startup.js';

const signer = testSigner();
const bearer = { authorization: 'Bearer admin-secret' };

async function refusal(setup: (root: string) => void): Promise<string> {
  const root = tempRoot('svc-plugin-dir-');
  try {
    setup(root);
    const run = await runRefused(root);
    assert.equal(run.code, 2, `expected exit 2, got ${run.code}:\n${run.stderr}`);
    assert.doesNotMatch(run.stderr, /fatal|\n\s+at /, 'no stack trace');
    return run.refusal;
  } finally {
    removeRoot(root);
  }
}

test('a plugins path that is a file refuses the start naming it (it was a stack trace)', async () => {
  const line = await refusal((root) => {
    writeConfig(root, '[server]\nport = 0\n');
    writeFileSync(join(root, 'plugins'), 'not a directory');
  });
  assert.match(line, /^svcd: refusing to start: the plugin directory \/.*\/plugins cannot be read: it is not a directory$/);
});

test('a plugin library writable by every user is refused naming the file and the fix', async () => {
  const line = await refusal((root) => {
    licensedRoot(root, signer, { key: signer.issue({ grants: ['security', 'notify'] }) });
    installPlugins(root, ['notify']);
    chmodSync(join(root, 'plugins', 'notify.so'), 0o666);
  });
  assert.match(line, /^svcd: refusing to start: plugin library refused: \/.*\/plugins\/notify\.so: is writable by every user \(mode 0666\), so any local user could replace code svcd runs; chmod o-w \/.*\/plugins\/notify\.so$/);
});

test('a plugin directory writable by every user refuses security.so as licensed requirement 2', async () => {
  const line = await refusal((root) => {
    licensedRoot(root, signer);
    chmodSync(join(root, 'plugins'), 0o1777);
  });
  assert.match(line, /licensed startup requirement 2: the security plugin must load: \/.*\/plugins\/security\.so: its directory \/.*\/plugins is writable by every user \(mode 1777\), so any local user could put another library in its place/);
});

test('a symbolic link to a library in a directory writable by every user is refused; one to a safe directory loads', async () => {
  const line = await refusal((root) => {
    licensedRoot(root, signer);
    const shared = join(root, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    renameSync(join(root, 'plugins', 'security.so'), join(shared, 'security.so'));
    symlinkSync(join(shared, 'security.so'), join(root, 'plugins', 'security.so'));
  });
  assert.match(line, /\/plugins\/security\.so: its directory \/.*\/shared is writable by every user \(mode 0777\)/);

  const root = tempRoot('svc-plugin-dir-');
  const config = licensedRoot(root, signer);
  mkdirSync(join(root, 'lib'), { mode: 0o755 });
  renameSync(join(root, 'plugins', 'security.so'), join(root, 'lib', 'security.so'));
  symlinkSync(join(root, 'lib', 'security.so'), join(root, 'plugins', 'security.so'));
  const d = await startDaemon(root, { config });
  try {
    const plugins = await d.request('GET', '/api/v1/system/plugins', undefined, bearer);
    assert.deepEqual(plugins.body.loaded.map((p: { name: string }) => p.name), ['security']);
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

test('a library another user owns loads with a warning naming the owner and the chown (a refusal would break checkouts run with sudo)', { skip: process.getuid?.() !== 0 && 'needs root to give the file away' }, async () => {
  const root = tempRoot('svc-plugin-dir-');
  const config = licensedRoot(root, signer);
  const library = join(root, 'plugins', 'security.so');
  chownSync(library, 65534, 65534);
  const d = await startDaemon(root, { config });
  try {
    const plugins = await d.request('GET', '/api/v1/system/plugins', undefined, bearer);
    assert.deepEqual(plugins.body.loaded.map((p: { name: string }) => p.name), ['security']);
    assert.ok(
      d.stderr.some((l) => l.includes(`plugin library ${library}: the library belongs to uid 65534, who can replace code svcd runs as uid 0; chown 0 `)),
      d.stderr.join('\n'),
    );
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeOtaFs } from '../../../controllers/ota/node-fs.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-ota-fs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A file svcd must never change: the target of a link someone planted beside the destination. */
function victim(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, 'secret\n', { mode: 0o600 });
  return path;
}

test('setMeta refuses a link swapped in at the staged name: the file it points to keeps its mode', async () => {
  const target = victim('victim-meta');
  const staged = join(dir, 'staged');
  symlinkSync(target, staged);
  await assert.rejects(nodeOtaFs.setMeta(staged, { mode: 0o755, uid: -1, gid: -1 }), /staged is a symbolic link \(not followed\)/);
  assert.equal(statSync(target).mode & 0o777, 0o600);
});

test('copy does not write through a link at the backup name', async () => {
  const target = victim('victim-copy');
  const from = join(dir, 'app');
  writeFileSync(from, 'v1\n', { mode: 0o750 });
  const to = join(dir, 'backup-next');
  symlinkSync(target, to);
  await assert.rejects(nodeOtaFs.copy(from, to), /EEXIST/);
  assert.equal(readFileSync(target, 'utf8'), 'secret\n');
  assert.equal(statSync(target).mode & 0o777, 0o600);
});

test('setMeta keeps set-user-ID and set-group-ID bits when it changes the owner', { skip: process.getuid?.() !== 0 && 'changing a file owner needs root' }, async () => {
  // The kernel clears both bits on chown: the mode must be set after the owner.
  const staged = join(dir, 'staged-suid');
  writeFileSync(staged, 'v2\n', { mode: 0o600 });
  await nodeOtaFs.setMeta(staged, { mode: 0o6755, uid: 65534, gid: 65534 });
  const s = statSync(staged);
  assert.deepEqual([s.mode & 0o7777, s.uid, s.gid], [0o6755, 65534, 65534]);
});

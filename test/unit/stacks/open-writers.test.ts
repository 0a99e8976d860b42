import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writersIn, writersOfFilesIn } from '../../../stacks/open-writers.js';

/** A shell that holds `file` open (`>>` for writing, `<` for reading) until it is killed. */
async function holder(redirect: '>>' | '<', file: string) {
  const child = spawn('sh', ['-c', `exec 3${redirect}"$1"; echo ready; exec sleep 60 3${redirect === '<' ? '<&3' : '>&3'}`, 'sh', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('error', reject);
  });
  return child;
}

test('writersIn finds the processes that have a file of the directory open for writing, not readers, not sub-folders', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-writers-'));
  mkdirSync(join(dir, 'lib'));
  for (const f of ['web.toml', 'read.toml', 'lib/x.toml']) writeFileSync(join(dir, f), '');
  const children = [await holder('>>', join(dir, 'web.toml')), await holder('<', join(dir, 'read.toml')), await holder('>>', join(dir, 'lib/x.toml'))];
  try {
    const writers = writersIn(dir);
    assert.deepEqual([...writers.keys()], ['web.toml']);
    assert.ok(writers.get('web.toml')?.includes(children[0].pid!), JSON.stringify([...writers]));
    assert.ok(writersOfFilesIn(dir)(join(dir, 'web.toml')).includes(children[0].pid!));
    assert.deepEqual(writersOfFilesIn(dir)(join(dir, 'read.toml')), []);
  } finally {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(writersIn('/nonexistent-svc-dir'), new Map(), 'a folder that is not there has no writers');
});

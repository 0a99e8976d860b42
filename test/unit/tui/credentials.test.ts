import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { savedToken, saveToken } from '../../../tui/cli/credentials.js';
import { CliError } from '../../../tui/cli/errors.js';

function inDir(fn: (dir: string, file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-credentials-'));
  return fn(dir, join(dir, 'svc', 'credentials.json')).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('a credentials file svc cannot parse is refused by a login, naming it, and left as it was (it was taken as empty and overwritten, dropping the other daemons\' credentials)', async () => {
  await inDir(async (_dir, file) => {
    await saveToken('http://127.0.0.1:9002', 'first', file);
    const broken = '{"http://10.0.0.5:9002": "other",'; // an editor left it cut
    writeFileSync(file, broken);
    await assert.rejects(saveToken('http://127.0.0.1:9002', 'second', file), (err: unknown) => err instanceof CliError && err.message.startsWith(`${file}: not the JSON object svc login writes`));
    assert.equal(readFileSync(file, 'utf8'), broken);
    assert.equal(savedToken('http://127.0.0.1:9002', file), undefined, 'reading it gives no credential, as before');
  });
});

test('a save replaces the file: a link at its name is not written through, another name of the same file keeps the old content, and the new file is the user\'s alone', async () => {
  await inDir(async (dir, file) => {
    await saveToken('http://127.0.0.1:9002', 'first', file);
    const other = join(dir, 'elsewhere.json');
    writeFileSync(other, '{}\n');
    rmSync(file);
    symlinkSync(other, file);
    await saveToken('http://127.0.0.1:9002', 'second', file);
    assert.equal(readFileSync(other, 'utf8'), '{}\n', 'the link target is untouched');
    assert.ok(lstatSync(file).isFile(), 'the link is replaced by a file');
    const twin = join(dir, 'twin.json');
    linkSync(file, twin);
    await saveToken('http://127.0.0.1:9003', 'third', file);
    assert.deepEqual(JSON.parse(readFileSync(twin, 'utf8')), { 'http://127.0.0.1:9002': 'second' }, 'written to a new file, not into the old one');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { 'http://127.0.0.1:9002': 'second', 'http://127.0.0.1:9003': 'third' });
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });
});

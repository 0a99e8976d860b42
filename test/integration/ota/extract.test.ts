import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { archiveExtractor } from '../../../controllers/ota/extract.js';
import { PermanentStepError, StagingWriteError } from '../../../controllers/ota/ports.js';
import { tarArchive, zipArchive, type FixtureEntry } from '../../helpers/archives.js';
import { sha } from '../../helpers/ota-fakes.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-extract-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const PAYLOAD = '#!/bin/sh\necho v2\n';

async function extract(archive: Buffer, name = 'app', maxBytes = 1_000_000) {
  const file = join(dir, `archive-${Math.random()}`);
  writeFileSync(file, archive);
  const out = join(dir, `out-${Math.random()}`);
  const result = await archiveExtractor.extract({ archive: file, out, name, maxBytes, signal: new AbortController().signal });
  return { ...result, out };
}

const formats: [string, (e: FixtureEntry[]) => Buffer][] = [
  ['tar', (e) => tarArchive(e)],
  ['tar.gz', (e) => tarArchive(e, true)],
  ['zip', (e) => zipArchive(e)],
];

for (const [format, build] of formats) {
  test(`${format}: the only file is the payload; with several, the one named like the destination`, async () => {
    const one = await extract(build([{ path: 'release/', type: 'Directory' }, { path: 'release/server', data: PAYLOAD }]));
    assert.equal(one.entry, 'release/server');
    assert.equal(readFileSync(one.out, 'utf8'), PAYLOAD);
    assert.equal(one.digest, sha(PAYLOAD));
    assert.equal(statSync(one.out).mode & 0o777, 0o600, 'staged private; the swap sets the final mode');
    const several = await extract(build([{ path: 'README', data: 'docs' }, { path: 'bin/app', data: PAYLOAD }, { path: 'LICENSE', data: 'MIT' }]));
    assert.equal(several.entry, 'bin/app');
    assert.equal(readFileSync(several.out, 'utf8'), PAYLOAD);
  });

  test(`${format}: links, devices, '..' and absolute paths are refused before anything is written`, async () => {
    const hostile: [FixtureEntry[], RegExp][] = [
      [[{ path: 'app', type: 'SymbolicLink', linkpath: '/etc/passwd' }], /link|not a valid/],
      [[{ path: '../app', data: PAYLOAD }], /outside the archive|invalid relative path/],
      [[{ path: '/tmp/app', data: PAYLOAD }], /absolute path/],
    ];
    if (format !== 'zip') hostile.push([[{ path: 'app', data: PAYLOAD }, { path: 'hard', type: 'Link', linkpath: 'app' }], /hard link/]);
    if (format !== 'zip') hostile.push([[{ path: 'tty', type: 'CharacterDevice' }, { path: 'app', data: PAYLOAD }], /device or special file/]);
    if (format === 'zip') hostile.push([[{ path: 'fifo', type: 'FIFO' }, { path: 'app', data: PAYLOAD }], /device or special file/]);
    for (const [entries, why] of hostile) {
      const file = join(dir, `hostile-${Math.random()}`);
      writeFileSync(file, build(entries));
      const out = join(dir, `never-${Math.random()}`);
      await assert.rejects(archiveExtractor.extract({ archive: file, out, name: 'app', maxBytes: 1_000_000, signal: new AbortController().signal }), (err: Error) => {
        assert.ok(err instanceof PermanentStepError, `${err.message} is permanent`);
        assert.match(err.message, why);
        return true;
      });
      assert.equal(existsSync(out), false);
    }
  });

  test(`${format}: no payload, an ambiguous payload and the size cap are refused`, async () => {
    await assert.rejects(extract(build([{ path: 'a', data: '1' }, { path: 'b', data: '2' }])), /2 files and none is named 'app'/);
    await assert.rejects(extract(build([{ path: 'x/app', data: '1' }, { path: 'y/app', data: '2' }])), /2 files named 'app'/);
    await assert.rejects(extract(build([{ path: 'd/', type: 'Directory' }])), /no regular file/);
    await assert.rejects(extract(build([{ path: 'app', data: PAYLOAD }]), 'app', 5), /ota.max_extract_bytes \(5\)/);
  });

  if (format !== 'zip') {
    test(`${format}: the listing stops at the first refused entry, before the rest is decompressed`, async () => {
      // The archive is cut short after the refused entry's header: had the listing read on, it
      // would have failed on the truncation ("not a valid tar archive") instead.
      const cut = (entries: FixtureEntry[], keep: number) => {
        const tar = tarArchive(entries).subarray(0, keep);
        return format === 'tar' ? tar : gzipSync(tar);
      };
      const big = cut([{ path: 'big', data: 'x'.repeat(4096) }, { path: 'app', data: PAYLOAD }], 512 + 1024);
      await assert.rejects(extract(big, 'app', 1000), /holds 4096 bytes of files, more than ota.max_extract_bytes \(1000\)/);
      const linked = cut([{ path: 'app', type: 'SymbolicLink', linkpath: '/etc/passwd' }, { path: 'big', data: 'x'.repeat(4096) }], 512 + 512 + 1024);
      await assert.rejects(extract(linked), /'app' is a symbolic link/);
    });
  }

  test(`${format}: a directory entry with the payload's path is not taken for the payload`, async () => {
    const got = await extract(build([{ path: 'app', type: 'Directory' }, { path: 'app', data: PAYLOAD }]));
    assert.equal(got.entry, 'app');
    assert.equal(readFileSync(got.out, 'utf8'), PAYLOAD, 'the file, not the (empty) directory entry before it');
    assert.equal(got.digest, sha(PAYLOAD));
  });

  test(`${format}: a staged file that cannot be written is retried, not taken for a bad archive`, async () => {
    // Disk full or an I/O error while writing the payload says nothing about the archive: the
    // attempt must be retried, not the checksum given up (docs/ota.md, Retries).
    const file = join(dir, `archive-${Math.random()}`);
    writeFileSync(file, build([{ path: 'app', data: PAYLOAD }]));
    const out = join(dir, 'no-such-dir', 'staged');
    await assert.rejects(archiveExtractor.extract({ archive: file, out, name: 'app', maxBytes: 1_000_000, signal: new AbortController().signal }), (err: Error) => {
      assert.ok(!(err instanceof PermanentStepError), `${err.message} is not permanent`);
      assert.ok(err instanceof StagingWriteError);
      assert.match(err.message, /cannot write the staged payload: ENOENT/);
      return true;
    });
  });
}

test('a file that is no archive is refused', async () => {
  await assert.rejects(extract(Buffer.from('just some bytes, not an archive'.repeat(40))), PermanentStepError);
});

test('a link planted at the staged name is replaced, not written through', async () => {
  const victim = join(dir, 'victim');
  writeFileSync(victim, 'secret\n', { mode: 0o600 });
  const archive = join(dir, 'planted.tar');
  writeFileSync(archive, tarArchive([{ path: 'app', data: PAYLOAD }]));
  const out = join(dir, 'planted-out');
  symlinkSync(victim, out);
  await archiveExtractor.extract({ archive, out, name: 'app', maxBytes: 1_000_000, signal: new AbortController().signal });
  assert.equal(readFileSync(victim, 'utf8'), 'secret\n');
  assert.ok(lstatSync(out).isFile());
  assert.equal(readFileSync(out, 'utf8'), PAYLOAD);
});

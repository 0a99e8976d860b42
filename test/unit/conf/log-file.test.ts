import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogFileSink, type AppendFs } from '../../../conf/log-file.js';

/** A disk of `free` bytes: writes fill it, then fail with ENOSPC; `free` can be raised again. */
function fakeDisk(free: number) {
  const disk = { free, content: '', opens: 0, open: 0 };
  const fs: AppendFs = {
    open: () => (disk.opens++, ++disk.open),
    write: (_fd, buf) => {
      if (disk.free <= 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      const n = Math.min(disk.free, buf.length);
      disk.content += buf.subarray(0, n).toString();
      disk.free -= n;
      return n;
    },
    close: () => undefined,
  };
  return { disk, fs };
}

test('after ENOSPC the log resumes when space returns, says how many lines were lost and mends a torn line', () => {
  const { disk, fs } = fakeDisk(25);
  let now = 1_000_000;
  const changes: string[] = [];
  const sink = new LogFileSink('/x/svcd.log', { fs, now: () => now, retryMs: 1000, onChange: (working, code) => changes.push(`${working}:${code}`) });
  sink.write('first line\n'); // 11 bytes
  sink.write('second line, torn by the full disk\n'); // only 14 bytes fit
  sink.write('third\n'); // within the retry delay: counted, not tried
  assert.equal(disk.content, 'first line\nsecond line, t');
  assert.deepEqual(changes, ['false:ENOSPC']);
  now += 1000;
  sink.write('fourth\n'); // tried again: still full
  assert.equal(disk.opens, 2, 'reopened for the retry');
  disk.free = 10_000; // space returns
  sink.write('fifth\n'); // still inside the new retry delay
  now += 1000;
  sink.write('sixth\n');
  const lines = disk.content.split('\n');
  assert.equal(lines[0], 'first line');
  assert.equal(lines[1], 'second line, t', 'the torn line is ended, not glued to the notice');
  const notice = JSON.parse(lines[2] ?? '') as { level: string; msg: string; ts: string };
  assert.equal(notice.level, 'warn');
  assert.equal(notice.msg, 'svcd.log: 4 lines were not written while the log file failed (ENOSPC)');
  assert.equal(lines[3], 'sixth');
  assert.deepEqual(changes, ['false:ENOSPC', 'true:ENOSPC']);
  sink.write('seventh\n');
  assert.ok(disk.content.endsWith('sixth\nseventh\n'));
});

test('an open that fails (the directory is gone) is retried the same way', () => {
  let fail = true;
  let content = '';
  const fs: AppendFs = {
    open: () => {
      if (fail) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return 3;
    },
    write: (_fd, buf) => ((content += buf.toString()), buf.length),
    close: () => undefined,
  };
  let now = 0;
  const sink = new LogFileSink('/gone/svcd.log', { fs, now: () => now });
  sink.write('a\n');
  fail = false;
  now = 5000;
  sink.write('b\n');
  assert.match(content, /^\{.*"svcd.log: 1 line was not written while the log file failed \(ENOENT\)"\}\nb\n$/);
});

test('a log file removed or renamed away is written again at its path (it took the lines of a deleted file until svcd restarted)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-log-file-'));
  try {
    const path = join(dir, 'svcd.log');
    let now = 0;
    const sink = new LogFileSink(path, { now: () => now, checkMs: 1000 });
    sink.write('one\n');
    rmSync(path); // `rm svcd.log` to free space
    now += 1000;
    sink.write('two\n');
    assert.equal(readFileSync(path, 'utf8'), 'two\n', 'a new file at the path');
    renameSync(path, `${path}.1`); // logrotate without copytruncate
    sink.write('three\n'); // within checkMs of the last check: the renamed file takes it
    now += 1000;
    sink.write('four\n');
    assert.equal(readFileSync(`${path}.1`, 'utf8'), 'two\nthree\n');
    assert.equal(readFileSync(path, 'utf8'), 'four\n');
    writeFileSync(path, ''); // truncated in place (copytruncate, svcd's own rotation): the same file
    now += 1000;
    sink.write('five\n');
    assert.equal(readFileSync(path, 'utf8'), 'five\n');
    sink.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

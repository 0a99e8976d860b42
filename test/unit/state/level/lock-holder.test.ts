import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockHolder } from '../../../../state/level/lock-holder.js';

/** A folder with a LOCK file, and the "MAJ:MIN:INODE" /proc/locks would name it by. */
function withLockFile(fn: (dir: string, device: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  try {
    writeFileSync(join(dir, 'LOCK'), '');
    const { dev, ino } = statSync(join(dir, 'LOCK'), { bigint: true });
    const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
    const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
    fn(dir, `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the POSIX lock on LOCK names its holder; other files, flock locks and waiters do not', () => {
  withLockFile((dir, device) => {
    const table = [
      `1: FLOCK  ADVISORY  WRITE 111 ${device} 0 EOF`,
      `2: POSIX  ADVISORY  WRITE 222 00:00:1 0 EOF`,
      `3: POSIX  ADVISORY  WRITE 1 ${device} 0 EOF`,
      `3: -> POSIX  ADVISORY  WRITE 444 ${device} 0 EOF`,
    ].join('\n');
    assert.deepEqual(lockHolder(dir, () => table)?.pid, 1);
    assert.equal(lockHolder(dir, () => table.split('\n').slice(0, 2).join('\n')), null, 'not locked');
  });
});

test('a holder in another pid namespace is pid 0 and still a holder; this process holding it is left to LevelDB', () => {
  withLockFile((dir, device) => {
    assert.deepEqual(lockHolder(dir, () => `1: POSIX  ADVISORY  WRITE 0 ${device} 0 EOF`), { pid: 0, command: null });
    assert.equal(lockHolder(dir, () => `1: POSIX  ADVISORY  WRITE ${process.pid} ${device} 0 EOF`), null);
  });
});

test('no LOCK file or no /proc/locks: no holder known', () => {
  withLockFile((dir, device) => {
    assert.equal(lockHolder(join(dir, 'absent'), () => `1: POSIX  ADVISORY  WRITE 7 ${device} 0 EOF`), null);
    assert.equal(lockHolder(dir, () => { throw new Error('ENOENT'); }), null);
  });
});

test('on btrfs (and overlayfs) /proc/locks names another device than stat: the inode, and a holder with LOCK open, still tell', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  const lock = join(dir, 'LOCK');
  writeFileSync(lock, '');
  const fd = openSync(lock, 'r');
  // A process with LOCK open (as its stdin), as the running svcd has it open for its lock.
  const holder = spawn('sleep', ['30'], { stdio: [fd, 'ignore', 'ignore'] });
  const other = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await Promise.all([holder, other].map((child) => new Promise((resolve) => child.once('spawn', resolve))));
    const { ino } = statSync(lock, { bigint: true });
    // btrfs: the superblock's anonymous device, not the subvolume's that stat answers.
    const line = (pid: number) => `1: POSIX  ADVISORY  WRITE ${pid} 00:99:${ino} 0 EOF`;
    assert.deepEqual(lockHolder(dir, () => line(holder.pid!))?.pid, holder.pid);
    assert.equal(lockHolder(dir, () => line(other.pid!)), null, 'the same inode number on another file system, held by a process without LOCK open');
  } finally {
    holder.kill('SIGKILL');
    other.kill('SIGKILL');
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
});

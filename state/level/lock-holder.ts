import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Who holds a LevelDB's LOCK file: the pid (0 when it is in another pid namespace) and its command line. */
export interface LockHolder {
  pid: number;
  command: string | null;
}

/** Reads the kernel's table of file locks; a seam for tests. */
export type ReadLocks = () => string;

const procLocks: ReadLocks = () => readFileSync('/proc/locks', 'utf8');

/**
 * The process holding the POSIX lock LevelDB takes on `location/LOCK`, found in /proc/locks by
 * the file's device and inode, or null (no such file, not locked, or no /proc). Asked before
 * LevelDB opens: LevelDB renames the holder's LOG to LOG.old before it tries the lock, and svc's
 * own write-ahead log checks would read a log another process is writing.
 */
export function lockHolder(location: string, readLocks: ReadLocks = procLocks): LockHolder | null {
  let file: { dev: bigint; ino: bigint };
  let table: string;
  try {
    file = statSync(join(location, 'LOCK'), { bigint: true });
    table = readLocks();
  } catch {
    return null;
  }
  const device = `${hex2(majorOf(file.dev))}:${hex2(minorOf(file.dev))}:${file.ino}`;
  for (const line of table.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 15130 fe:00:2147220 0 EOF"; a waiter's line has "->" after the number.
    const fields = line.trim().split(/\s+/);
    if (fields[1] === '->' || fields[1] !== 'POSIX') continue;
    if (fields[5] !== device) continue;
    const pid = Number(fields[4]);
    if (!Number.isInteger(pid) || pid === process.pid) return null;
    return { pid, command: pid > 0 ? commandOf(pid) : null };
  }
  return null;
}

/** Linux's dev_t encoding (glibc's gnu_dev_major / gnu_dev_minor). */
function majorOf(dev: bigint): bigint {
  return ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
}

function minorOf(dev: bigint): bigint {
  return (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
}

function hex2(n: bigint): string {
  return n.toString(16).padStart(2, '0');
}

function commandOf(pid: number): string | null {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((w) => w !== '');
    return words.length > 0 ? words.join(' ') : null;
  } catch {
    return null;
  }
}

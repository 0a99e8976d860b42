import { readdirSync, readFileSync, statSync } from 'node:fs';
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
 * the file's device and inode (or, where the device differs, btrfs and overlayfs, by the inode
 * and a holder that has the file open), or null (no such file, not locked, or no /proc). Asked before
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
  // Held locks on a file with LOCK's inode number, the one on LOCK's device first.
  const candidates: { pid: number; sameDevice: boolean }[] = [];
  for (const line of table.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 15130 fe:00:2147220 0 EOF"; a waiter's line has "->" after the number.
    const fields = line.trim().split(/\s+/);
    if (fields[1] !== 'POSIX') continue;
    const pid = Number(fields[4]);
    if (!Number.isInteger(pid) || !fields[5]?.endsWith(`:${file.ino}`)) continue;
    candidates.push({ pid, sameDevice: fields[5] === device });
  }
  const exact = candidates.find((c) => c.sameDevice);
  // /proc/locks names the device of the file system's superblock, and stat another one on btrfs
  // (each subvolume's) and on overlayfs: there, the holder is the process that has LOCK open.
  const holder = exact ?? candidates.find((c) => c.pid > 0 && c.pid !== process.pid && hasOpen(c.pid, file));
  if (!holder || holder.pid === process.pid) return null;
  return { pid: holder.pid, command: holder.pid > 0 ? commandOf(holder.pid) : null };
}

/** Whether the process has the file open (its /proc/PID/fd links lead to it); false when not allowed to look. */
function hasOpen(pid: number, file: { dev: bigint; ino: bigint }): boolean {
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const open = statSync(`/proc/${pid}/fd/${fd}`, { bigint: true });
        if (open.dev === file.dev && open.ino === file.ino) return true;
      } catch {
        // closed meanwhile, or not a file
      }
    }
  } catch {
    // another user's process, or gone
  }
  return false;
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

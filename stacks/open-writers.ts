import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';

/** O_ACCMODE bits of the `flags:` line in /proc/<pid>/fdinfo/<fd> (octal): O_WRONLY 1, O_RDWR 2. */
const ACCESS_MODE = 0o3;

/**
 * The files directly inside `dir` that a process has open for writing, by name, each with those
 * processes, read from /proc: every process this user may look at (all of them for root). Empty
 * where /proc cannot be read. A stack file caught while its writer pauses (a slow copy, a script
 * that writes a line at a time) is open in such a process; a save by rename is not. One pass
 * over every open file: ~15 ms for 1,300.
 */
export function writersIn(dir: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let pids: string[];
  let prefix: string;
  try {
    prefix = `${realpathSync(dir)}/`; // /proc shows where the links lead
    pids = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (!target.startsWith(prefix) || target.includes('/', prefix.length)) continue;
        const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'latin1'))?.[1];
        if (flags === undefined || (parseInt(flags, 8) & ACCESS_MODE) === 0) continue;
        const name = target.slice(prefix.length);
        const pids = out.get(name) ?? [];
        if (!pids.includes(Number(pid))) out.set(name, [...pids, Number(pid)]);
      } catch {
        // closed meanwhile
      }
    }
  }
  return out;
}

/** `writersIn(dir)` for one file, with one pass shared by the files asked about within `ttlMs` (the start-up pass asks for each). */
export function writersOfFilesIn(dir: string, ttlMs = 250): (path: string) => number[] {
  let scan: { at: number; writers: Map<string, number[]> } | null = null;
  return (path) => {
    const now = Date.now();
    if (!scan || now - scan.at > ttlMs) scan = { at: now, writers: writersIn(dir) };
    return scan.writers.get(basename(path)) ?? [];
  };
}

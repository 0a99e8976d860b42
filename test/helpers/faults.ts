import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SVCD, TIME_SCALE, writeConfig } from './daemon.js';

/**
 * The argument that marks a test program's processes: its name, made unique to this test process,
 * because processesWith and killMarked look machine-wide (another suite on the same machine, such
 * as npm run test:stress beside a developer's run, starts programs of the same names).
 */
export function marker(name: string): string {
  return `${name}@${process.pid}`;
}

/** Pids of live processes that carry marker(name) as an argument (each test program gets its own). */
export function processesWith(name: string): number[] {
  const wanted = marker(name);
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      if (cmdline.split('\0').includes(wanted)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Kills (by pid) every process carrying marker(name) of one of the names: nothing outlives a fault test. */
export function killMarked(names: string[]): void {
  for (const name of names) {
    for (const pid of processesWith(name)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Mounts a tmpfs of `sizeMiB` at `dir`: a small disk the test can fill. Returns an unmount
 * function, or the reason it cannot (not root, no mount permission in this container).
 */
export function mountTmpfs(dir: string, sizeMiB: number): { unmount: () => void } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'needs root to mount a small tmpfs as the data disk' };
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return { skip: `cannot mount a tmpfs here: ${(r.stderr || r.error?.message || '').trim()}` };
  return { unmount: () => void spawnSync('umount', ['-l', dir]) };
}

/** Writes a filler file into `dir` until the disk is full; returns its path (delete it to free the space). */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  // Page-sized leftovers last: LevelDB's next small append must not find room.
  try {
    for (;;) writeSync(fd, chunk, 0, 512);
  } catch {
    // full
  } finally {
    closeSync(fd);
  }
  return file;
}

export function freeDisk(filler: string): void {
  rmSync(filler, { force: true });
}

export interface SvcdRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs svcd to completion (a refusal to start, or `--repair-store`), with a port-0 config. */
export function runSvcd(root: string, args: string[] = [], timeoutMs = 20_000 * TIME_SCALE): Promise<SvcdRun> {
  writeConfig(root, '[server]\nport = 0\n');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SVCD, ...args], { env: { ...process.env, SVC_ROOT: root }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

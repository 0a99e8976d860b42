import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second for /proc/<pid>/stat times (USER_HZ; 100 on every Linux we target). */
const CLK_TCK = 100;

/** Resident set size of a process in MiB (VmRSS), NaN when it is gone. */
export function rssMiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU seconds a process has used so far (its own, not its children's). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return Number.NaN;
  }
}

/** True while the pid exists and is not a zombie (an exited, unreaped child counts as gone). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of every process whose environment holds `key=value` (this process excluded). */
export function pidsWithEnv(key: string, value: string): number[] {
  const needle = `\0${key}=${value}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (`\0${readFileSync(`/proc/${name}/environ`, 'latin1')}`.includes(needle)) found.push(pid);
    } catch {
      /* gone or not ours to read */
    }
  }
  return found;
}

/** Polls `check` every `everyMs` until true; returns the elapsed ms, or throws after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000, everyMs = 5): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await check()) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Context switches of every thread of a process (voluntary + involuntary, summed over
 * /proc/<pid>/task/*): each voluntary switch is the thread going to sleep, so the growth over a
 * window counts its wake-ups. NaN when the process is gone.
 */
export function contextSwitches(pid: number): number {
  try {
    let sum = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'latin1');
        for (const m of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) sum += Number(m[1]);
      } catch {
        /* the thread ended between readdir and read */
      }
    }
    return sum;
  } catch {
    return Number.NaN;
  }
}

/** Direct children of a process (every thread's), [] when it is gone. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return '';
  }
}

/** Proportional set size in MiB (shared pages divided among their users), NaN when gone. */
export function pssMiB(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * A manager's memory in MiB: VmRSS summed over its processes; for a manager of many small
 * processes (s6: one supervisor per program, each mapping the same libc) PSS, so shared pages
 * are counted once rather than once per process.
 */
export function managerMiB(pids: number[]): number {
  const read = pids.length > 2 ? pssMiB : rssMiB;
  return pids.reduce((sum, pid) => sum + (read(pid) || 0), 0);
}

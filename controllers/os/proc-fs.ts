import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** One buffer for every /proc/<pid>/stat read (a line of a few hundred bytes; the daemon has one thread). */
const statBuffer = Buffer.allocUnsafe(4096);

/**
 * The text of /proc/<pid>/stat, or null when the process is gone. open, one read and close
 * into a reused buffer: a third of readFileSync's cost (which stats the file and allocates per
 * call), and usage passes read one file per program.
 */
function readStatText(pid: number): string | null {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return null;
  }
  try {
    const n = readSync(fd, statBuffer, 0, statBuffer.length, 0);
    return n < statBuffer.length ? statBuffer.toString('latin1', 0, n) : readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Reads /proc/<pid>/stat fields (after the comm field, which may contain spaces). */
export function readStat(pid: number): string[] | null {
  const text = readStatText(pid);
  if (text === null) return null;
  const close = text.lastIndexOf(')');
  // fields[0] is field 3 (state); field N is at index N - 3.
  return text.slice(close + 2).split(' ');
}

export const statField = (fields: string[], n: number): number => Number(fields[n - 3] ?? NaN);

/** starttime (field 22) of a pid, or null when gone or a zombie. */
export function procStartTime(pid: number): number | null {
  const fields = readStat(pid);
  if (!fields || fields[0] === 'Z') return null;
  return statField(fields, 22);
}

function getconf(name: string, fallback: number): number {
  try {
    const value = Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim());
    return Number.isFinite(value) && value > 0 ? value : fallback;
  } catch {
    return fallback;
  }
}

/** The kernel's auxiliary vector of this process (key -> value), or an empty map where it cannot be read. */
function auxv(): Map<number, number> {
  const out = new Map<number, number>();
  // Pairs of native words: 64-bit little-endian on the platforms svc runs on (x86_64, arm64).
  if (process.arch !== 'x64' && process.arch !== 'arm64') return out;
  try {
    const raw = readFileSync('/proc/self/auxv');
    for (let at = 0; at + 16 <= raw.length; at += 16) out.set(Number(raw.readBigUInt64LE(at)), Number(raw.readBigUInt64LE(at + 8)));
  } catch {
    // no /proc: getconf below
  }
  return out;
}

const AT_PAGESZ = 6;
const AT_CLKTCK = 17;
const aux = auxv();
const positive = (n: number | undefined): number | undefined => (n !== undefined && Number.isFinite(n) && n > 0 ? n : undefined);

// From the auxiliary vector, as libc's sysconf does; getconf (two child processes) only if it is unreadable.
export const CLOCK_TICKS = positive(aux.get(AT_CLKTCK)) ?? getconf('CLK_TCK', 100);
export const PAGE_SIZE = positive(aux.get(AT_PAGESZ)) ?? getconf('PAGESIZE', 4096);

/** Unix ms of a /proc start time (clock ticks since boot), from the boot time in /proc/stat. */
export function startTimeToMs(startTime: number): number | undefined {
  try {
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))?.[1]);
    return Number.isFinite(btime) ? Math.round(btime * 1000 + (startTime / CLOCK_TICKS) * 1000) : undefined;
  } catch {
    return undefined; // no /proc/stat: the caller keeps its own estimate
  }
}

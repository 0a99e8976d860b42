import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const BUILT = join(REPO, 'dist', 'native', 'svc-spawner');
const ASAN = join(REPO, 'dist', 'native-asan', 'svc-spawner');

/**
 * The spawner the tests run: the AddressSanitizer build when `npm run build:asan` made it after
 * the plain one (a stale ASan copy is not used), else the plain build.
 */
export function spawnerBinary(): string {
  if (existsSync(ASAN) && existsSync(BUILT) && statSync(ASAN).mtimeMs >= statSync(BUILT).mtimeMs) return ASAN;
  return BUILT;
}

/** What the sanitizers (ASan, LSan, UBSan) wrote to a spawner log, or '' when nothing. */
export function sanitizerReports(logFile: string): string {
  const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  return /Sanitizer|runtime error:/.test(text) ? text : '';
}

function spawnerPid(socketPath: string): number | null {
  try {
    const pid = Number(readFileSync(`${socketPath}.lock`, 'utf8').trim());
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const state = readFileSync(`/proc/${pid}/stat`, 'latin1');
    if (state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) === 'Z') return null;
    return cmdline[0]?.endsWith('svc-spawner') && cmdline.includes(socketPath) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * After a graceful daemon stop: gives the spawner `graceMs` to exit by itself (it does once its
 * last child is gone; LeakSanitizer reports at that exit), then kills it.
 */
export async function endSpawnerOf(socketPath: string, graceMs = 5000): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (spawnerPid(socketPath) !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  killSpawnerOf(socketPath);
}

/**
 * Kills the spawner serving `socketPath` (its pid is in `<socket>.lock`), if it is still that
 * spawner; returns its pid or null. A spawner keeps a crashed daemon's exits until a daemon
 * reads them, so tests end it themselves.
 */
export function killSpawnerOf(socketPath: string): number | null {
  const pid = spawnerPid(socketPath);
  if (pid === null) return null;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return null;
  }
  return pid;
}

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

/**
 * Kills the spawner serving `socketPath` (its pid is in `<socket>.lock`), if it is still that
 * spawner; returns its pid or null. A spawner keeps a crashed daemon's exits until a daemon
 * reads them, so tests end it themselves.
 */
export function killSpawnerOf(socketPath: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(`${socketPath}.lock`, 'utf8').trim());
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!cmdline[0]?.endsWith('svc-spawner') || !cmdline.includes(socketPath)) return null;
  } catch {
    return null;
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return null;
  }
  return pid;
}

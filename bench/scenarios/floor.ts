import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun } from '../exec.js';

const WORKER = join(fileURLToPath(new URL('..', import.meta.url)), 'floor-worker.js');

/** S0: fork+exec N sleeps from a minimal Node process; ms until every one has a pid. */
export async function startFloor(n: number): Promise<number> {
  return (JSON.parse(await mustRun(process.execPath, [WORKER, 'start', String(n)])) as { ms: number }).ms;
}

/** Kernel floor of S5: ms from SIGTERM to N sleeps being gone, when we kill them ourselves. */
export async function killFloor(n: number): Promise<number> {
  return (JSON.parse(await mustRun(process.execPath, [WORKER, 'kill', String(n)])) as { ms: number }).ms;
}

/** Floor of S3: the crash program respawned by a bare Node loop for `secs`; writes stamps to file. */
export async function respawnFloor(file: string, secs: number): Promise<number> {
  return (JSON.parse(await mustRun(process.execPath, [WORKER, 'respawn', file, String(secs)])) as { runs: number }).runs;
}

/** How the C floor starts each child (native/spawn-floor): the spawner's candidates. */
export type CSpawnMethod = 'posix_spawn' | 'clone' | 'fork';
const C_FLOOR = join(fileURLToPath(new URL('../../..', import.meta.url)), 'dist', 'native', 'svc-spawn-floor');

/** S0 in C: N `sleep 3600` from a tiny C process, new session and /dev/null fds as svc gives them. */
export async function startFloorC(n: number, method: CSpawnMethod): Promise<number> {
  return (JSON.parse(await mustRun(C_FLOOR, [method, String(n)])) as { ms: number }).ms;
}

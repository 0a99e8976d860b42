import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinuxOs } from './linux.js';
import type { OsPort } from './port.js';
import { SpawnerOs } from './spawner-os.js';
import { MAX_SOCKET_PATH } from './spawner/launch.js';

/** dist/native/svc-spawner, built by `npm run build` from native/spawner. */
export const BUILT_SPAWNER = fileURLToPath(new URL('../../native/svc-spawner', import.meta.url));

export interface OsChoice {
  /** [supervisor] spawner; env SVC_SPAWNER=0/off/false or 1/on/true overrides it. */
  spawner: boolean;
  env: Record<string, string | undefined>;
  root: string;
  logDir: string;
  warn: (msg: string) => void;
}

/** Where the spawner listens: under $SVC_ROOT/run, beside svcd.sock. */
export function spawnerSocketPath(root: string): string {
  return join(root, 'run', 'spawner.sock');
}

function wanted(choice: OsChoice): boolean {
  const v = choice.env.SVC_SPAWNER?.trim().toLowerCase();
  if (v === undefined || v === '') return choice.spawner;
  if (['0', 'off', 'false', 'no'].includes(v)) return false;
  if (['1', 'on', 'true', 'yes'].includes(v)) return true;
  choice.warn(`SVC_SPAWNER=${choice.env.SVC_SPAWNER}: not one of on/off; using [supervisor] spawner = ${choice.spawner}`);
  return choice.spawner;
}

/**
 * The OS port for svcd: SpawnerOs when the spawner is wanted and starts, else Node's
 * child_process (LinuxOs) with one warning line saying why. SVC_SPAWNER_BINARY picks another
 * binary (the tests' AddressSanitizer build).
 */
export async function createOs(choice: OsChoice): Promise<OsPort> {
  if (!wanted(choice)) return new LinuxOs();
  const binary = choice.env.SVC_SPAWNER_BINARY || BUILT_SPAWNER;
  const socketPath = spawnerSocketPath(choice.root);
  const fallback = "programs are started with Node's child_process";
  if (!existsSync(binary)) {
    choice.warn(`svc-spawner not found at ${binary} (run npm run build); ${fallback}`);
    return new LinuxOs();
  }
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    choice.warn(`svc-spawner: socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; ${fallback}`);
    return new LinuxOs();
  }
  try {
    return await SpawnerOs.start({ binary, socketPath, logFile: join(choice.logDir, 'spawner.log'), warn: choice.warn });
  } catch (err) {
    choice.warn(`svc-spawner failed to start (${(err as Error).message}); ${fallback}`);
    return new LinuxOs();
  }
}

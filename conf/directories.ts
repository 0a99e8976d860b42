import { accessSync, constants, lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, keyLocation } from './load-config.js';
import { onKernelFs } from './kernel-fs.js';
import type { SvcConfig } from './keys.js';

/**
 * The folders svcd writes, by the key that names them: `dir` is created, `parent` is a LevelDB
 * folder or a socket whose parent is created (the store makes the rest).
 */
const FOLDERS = [
  { section: 'storage', key: 'data_dir', kind: 'dir' },
  { section: 'storage', key: 'log_dir', kind: 'dir' },
  { section: 'storage', key: 'events_file', kind: 'parent' },
  { section: 'stacks', key: 'dir', kind: 'dir' },
] as const;

/**
 * Creates the folders the configuration names and checks that svcd can write them, before
 * anything opens them: a file in the way or a folder svcd may not write refuses the start naming
 * the key and its line (`conf/svc.toml:8: storage.data_dir = "/srv/x": not a directory`), where
 * it was an `EEXIST: file already exists, mkdir '/srv/x'` from whichever part tried first.
 */
export function prepareFolders(config: SvcConfig): void {
  const folders: { section: string; key: string; path: string; kind: 'dir' | 'parent' }[] = FOLDERS.map((f) => ({ ...f, path: (config[f.section] as Record<string, string | number | boolean>)[f.key] as string }));
  if (config.server.socket_only) folders.push({ section: 'server', key: 'socket_path', path: config.server.socket_path, kind: 'parent' });
  // Two stores on one LevelDB folder: the second open failed as if another svcd held the lock.
  if (resolve(config.storage.events_file) === resolve(config.storage.data_dir, 'state.db')) {
    throw new ConfigError(`${keyLocation(config, 'storage', 'events_file')}: storage.events_file = "${config.storage.events_file}": is the state store's folder (data_dir/state.db); the event history needs a folder of its own`);
  }
  for (const { section, key, path, kind } of folders) {
    const problem = kind === 'dir' ? folderProblem(path) : (existingNonDirectory(path, key) ?? folderProblem(dirname(path)));
    if (problem) throw new ConfigError(`${keyLocation(config, section, key)}: ${section}.${key} = "${path}": ${problem}`);
  }
}

function folderProblem(dir: string): string | null {
  if (onKernelFs(dir)) return 'a folder under /proc or /sys cannot hold svc files';
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    return explain(err);
  }
  if (!statSync(dir).isDirectory()) return 'not a directory';
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    // A read-only mount is fixed by remounting it, not by changing the folder's mode.
    if ((err as NodeJS.ErrnoException).code === 'EROFS') return 'it is on a read-only file system (EROFS)';
    return `svcd may not write in it (${(err as NodeJS.ErrnoException).code ?? 'EACCES'})`;
  }
  return null;
}

/** A LevelDB folder must be a folder if it exists; a socket path is checked by socketPathProblem. */
function existingNonDirectory(path: string, key: string): string | null {
  if (key === 'socket_path') return socketPathProblem(path);
  try {
    return statSync(path).isDirectory() ? null : 'not a directory';
  } catch {
    return null;
  }
}

/** sun_path holds 108 bytes with its terminating NUL; a longer path failed at listen as "address already in use". */
const SOCKET_PATH_MAX_BYTES = 107;

/**
 * svcd removes what is at the socket path before it listens (a socket left by an svcd that did
 * not stop cleanly): only a socket may be there, so a file the path names by mistake is not
 * deleted. Whether a socket there is still served is checked at start (bin/daemon.ts).
 */
function socketPathProblem(path: string): string | null {
  const bytes = Buffer.byteLength(resolve(path));
  if (bytes > SOCKET_PATH_MAX_BYTES) return `${bytes} bytes long; a Unix socket path may have at most ${SOCKET_PATH_MAX_BYTES} (choose a shorter path)`;
  try {
    return lstatSync(path).isSocket() ? null : 'not a socket (a file is in the way; svcd replaces only a socket an earlier svcd left)';
  } catch {
    return null;
  }
}

function explain(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  if (code === 'EEXIST' || code === 'ENOTDIR') return `not a directory (a file is in the way; ${code})`;
  return `cannot create it (${code})`;
}

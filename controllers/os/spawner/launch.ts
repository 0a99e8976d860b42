import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';

/** Where the spawner lives and logs; see docs/operations.md ("The spawner"). */
export interface SpawnerLocation {
  binary: string;
  socketPath: string;
  /** The spawner's own stderr (and ASan reports), appended. */
  logFile: string;
  /** Extra arguments (tests: `--method posix_spawn`). */
  args?: string[];
  readyTimeoutMs?: number;
}

/** A Unix socket path longer than sun_path (108 bytes with the NUL) cannot be bound. */
export const MAX_SOCKET_PATH = 107;

export function connectSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * Starts a spawner in its own session and resolves with its pid once it listens. It is not
 * svcd's to wait for: unref'd, it outlives a crashed daemon.
 */
export function startSpawner(loc: SpawnerLocation): Promise<number> {
  mkdirSync(dirname(loc.socketPath), { recursive: true });
  mkdirSync(dirname(loc.logFile), { recursive: true });
  const log = openSync(loc.logFile, 'a', 0o640);
  return new Promise<number>((resolve, reject) => {
    let child;
    try {
      child = spawn(loc.binary, ['--socket', loc.socketPath, ...(loc.args ?? [])], { detached: true, stdio: ['ignore', 'pipe', log] });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
      return;
    } finally {
      closeSync(log);
    }
    let out = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${why} (see ${loc.logFile})`));
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(`svc-spawner did not get ready within ${loc.readyTimeoutMs ?? 10_000} ms`);
    }, loc.readyTimeoutMs ?? 10_000);
    child.once('error', (err) => fail(`cannot start ${loc.binary}: ${err.message}`));
    child.once('exit', (code, signal) => fail(`svc-spawner exited at start (${signal ?? `code ${code}`})`));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^ready (\d+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout?.destroy();
      child.unref();
      resolve(Number(m[1]));
    });
  });
}

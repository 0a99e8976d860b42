import { before, after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { endSpawnerOf, sanitizerReports, spawnerBinary } from './spawner-binary.js';
import { Agent, fetch as undiciFetch, setGlobalDispatcher } from 'undici';

// One connection per request in tests: a test that keeps its own event loop busy for longer than
// svcd's 5 s keep-alive (validating a large document, a loaded machine) would otherwise send its
// next request on a connection svcd has just closed, and fetch fails for a reason of its own.
// The global fetch is the project's undici too: Node 20's built-in fetch (undici 6) driving an
// undici 7 dispatcher trips an assertion when a connection ends under a response not yet read.
setGlobalDispatcher(new Agent({ pipelining: 0 }));
globalThis.fetch = undiciFetch as unknown as typeof fetch;

export const REPO = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const FIXTURES = join(REPO, 'test', 'fixtures');
export const SVCD = join(REPO, 'dist', 'bin', 'svcd.js');
export const SVC = join(REPO, 'dist', 'bin', 'svc.js');

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

export function tempRoot(prefix = 'svc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface RunningDaemon {
  root: string;
  url: string;
  proc: ChildProcess;
  stderr: string[];
  request: <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: T }>;
  /** Graceful stop (SIGTERM), then kills whatever it started that is still alive. */
  stop: () => Promise<number | null>;
  /** SIGKILL the daemon only (its programs survive, as after a crash). */
  crash: () => Promise<void>;
}

/** Writes conf/svc.toml under root with the given TOML body (port 0 = a free port). */
export function writeConfig(root: string, toml: string): void {
  mkdirSync(join(root, 'conf'), { recursive: true });
  writeFileSync(join(root, 'conf', 'svc.toml'), toml);
}

/**
 * Starts a real svcd on a free port under `root` and resolves once it listens. Every program pid
 * it ever reports is remembered and killed at `stop()`, so no test leaves processes behind.
 */
export async function startDaemon(root = tempRoot(), opts: { config?: string; env?: Record<string, string>; args?: string[] } = {}): Promise<RunningDaemon> {
  writeConfig(root, opts.config ?? '[server]\nport = 0\n');
  // The daemon uses the spawner (the ASan build when fresh) unless opts.env says SVC_SPAWNER=off.
  const env = { ...process.env, SVC_ROOT: root, SVC_SPAWNER_BINARY: spawnerBinary(), ...opts.env };
  const proc = spawn(process.execPath, [SVCD, ...(opts.args ?? [])], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  const url = await new Promise<string>((resolveUrl, reject) => {
    const lines = createInterface({ input: proc.stderr });
    lines.on('line', (line) => {
      stderr.push(line);
      const m = /"msg":"svcd ready".*"listen":"([^"]+)"/.exec(line);
      if (m) resolveUrl(`http://${m[1]}`);
    });
    proc.once('exit', (code) => reject(new Error(`svcd exited with ${code}:\n${stderr.join('\n')}`)));
  });
  // pid -> its start time: on a busy machine pids wrap around (pid_max is often 32768) within
  // minutes, and a stale pid may be another test's process group by the time this one cleans up.
  const seenPids = new Map<number, string>();
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (method === 'GET' && path === '/api/v1/programs' && Array.isArray(parsed)) {
      for (const p of parsed as { pid: number | null }[]) {
        const started = p.pid ? startTimeOf(p.pid) : null;
        if (p.pid && started && !seenPids.has(p.pid)) seenPids.set(p.pid, started);
      }
    }
    return { status: res.status, body: parsed };
  };
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const killLeftovers = () => {
    for (const [pid, started] of seenPids) {
      if (startTimeOf(pid) !== started) continue; // gone, or the pid now belongs to someone else
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
  return {
    root,
    url,
    proc,
    stderr,
    request,
    async stop() {
      await request('GET', '/api/v1/programs').catch(() => undefined);
      if (proc.exitCode === null) proc.kill('SIGTERM');
      // Bounds a hang only (a graceful stop of many programs is slow on a loaded machine).
      const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000 * TIME_SCALE);
      const code = await exited;
      clearTimeout(timer);
      killLeftovers();
      await endSpawnerOf(join(root, 'run', 'spawner.sock'));
      const report = sanitizerReports(join(root, 'logs', 'spawner.log'));
      if (report) throw new Error(`svc-spawner: sanitizer report in ${root}/logs/spawner.log:\n${report}`);
      return code;
    },
    async crash() {
      await request('GET', '/api/v1/programs').catch(() => undefined);
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Deadlines of `eventually` (and the other waits of the helpers, such as browser and spawner
 * timeouts) are multiplied by this (SVC_TEST_TIME_SCALE, default 4): a deadline only bounds a
 * failure, and a passing wait returns as soon as its condition holds, so a busy machine (npm run
 * test:stress, a slower CI host) must not turn a slow success into a failure.
 */
export const TIME_SCALE = Number(process.env.SVC_TEST_TIME_SCALE ?? 4);

/** Polls `check` until it returns a truthy value (integration tests only; never in unit tests). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs * TIME_SCALE;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function removeRoot(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot): with the pid, names one process. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True while the pid exists and is not a zombie (an unreaped exit counts as gone). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * One real daemon for the whole test file: started before the first test, stopped (with every
 * process it started) and its root removed after the last. Returns a handle that refers to it.
 */
export function useDaemon(opts: { root?: string; config?: string; env?: Record<string, string>; args?: string[] } = {}): RunningDaemon {
  let daemon: RunningDaemon | undefined;
  before(async () => {
    daemon = await startDaemon(opts.root ?? tempRoot(), opts);
  });
  after(async () => {
    if (!daemon) return;
    await daemon.stop();
    removeRoot(daemon.root);
  });
  const current = (): RunningDaemon => {
    if (!daemon) throw new Error('the daemon is not started yet (use it inside a test)');
    return daemon;
  };
  // Every member of RunningDaemon is a field or a closure, so forwarding reads is enough.
  return new Proxy({} as RunningDaemon, { get: (_target, key) => current()[key as keyof RunningDaemon] });
}

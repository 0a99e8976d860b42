import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { dirname } from 'node:path';
import type { CaptureSpec, ExitInfo, OsPort, ProcessHandle, ProgramProcess, Recovered, SignalName, SpawnSpec, UsageSample, UserInfo } from './port.js';
import { captureWithChildProcess } from './linux-capture.js';
import { parseEnviron, roleOf } from './process-role.js';
import { CLOCK_TICKS, PAGE_SIZE, procStartTime, readStat, startTimeToMs, statField } from './proc-fs.js';
import { describeSpawnError } from './spawn-errors.js';
import { childProcessPlan, describeHelperFailure } from './exec-helper.js';
import { readEnvFileBounded, type ReadAs } from './read-env-file.js';
import { UserDb } from './user-db.js';

const ADOPTED_POLL_MS = 1000;

/** The real operating system (Linux /proc). */
export class LinuxOs implements OsPort {
  private readonly cpuTicks = new Map<number, { ticks: number; at: number }>();
  private readonly adopted = new Map<number, { handle: ProcessHandle; onExit: (exit: ExitInfo) => void }>();
  private adoptedTimer: NodeJS.Timeout | null = null;
  /** /etc/passwd and /etc/group, then the other NSS sources through getent. */
  private readonly users = new UserDb();

  spawn(spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> {
    return new Promise((resolve, reject) => {
      const plan = childProcessPlan(spec);
      if (plan instanceof Error) {
        reject(plan);
        return;
      }
      let out: number | undefined;
      let err: number | undefined;
      let input: number | undefined;
      try {
        out = openLog(spec.stdoutPath);
        err = spec.stderrPath === spec.stdoutPath ? out : openLog(spec.stderrPath);
      } catch (error) {
        closeFds(out, err);
        reject(new Error(`cannot open log file: ${(error as Error).message}`));
        return;
      }
      try {
        if (spec.stdinPath) input = openSync(spec.stdinPath, 'r');
      } catch (error) {
        closeFds(out, err);
        reject(new Error(`cannot open stdin file: ${(error as Error).message}`));
        return;
      }
      let child: ChildProcess;
      try {
        child = spawn(plan.file, plan.args, {
          cwd: spec.cwd,
          env: spec.env,
          uid: plan.uid,
          gid: plan.gid,
          detached: true, // own session and process group: signals reach children; survives a daemon crash
          stdio: [input ?? 'ignore', out, err, ...(plan.statusFd ? (['pipe'] as const) : [])],
        });
      } catch (error) {
        // Bad arguments (a NUL byte) and some errnos (ENOTDIR) throw here, not as an 'error' event.
        reject(new Error(describeSpawnError(spec, error as Error)));
        return;
      } finally {
        closeFds(out, err); // the child has its own copies; ours are closed on every path
        if (input !== undefined) closeSync(input);
      }
      child.once('error', (error) => reject(new Error(describeSpawnError(spec, error))));
      child.once('spawn', () => {
        const pid = child.pid as number;
        const startTime = procStartTime(pid) ?? 0;
        child.unref();
        const exit = new Promise<ExitInfo>((resolveExit) =>
          child.once('exit', (code, signal) => {
            this.cpuTicks.delete(pid);
            killGroupRemnants(pid);
            resolveExit({ code, signal: signal ? (constants.signals[signal] ?? null) : null });
          }),
        );
        const started = () => {
          resolve({ pid, startTime });
          // In a later task: a process that ended before svc-exec's status pipe closed has its
          // exit already, and its callback must not run before the caller has the handle
          // (decorators and SpawnerOs add awaits in between; port.ts, spawn).
          void exit.then((info) => setImmediate(() => onExit(info)));
        };
        const status = plan.statusFd ? (child.stdio[plan.statusFd] as Readable | null) : null;
        if (!status) return started();
        // svc-exec closes it at the program's exec, having written nothing; or says why it could not.
        let report = '';
        status.setEncoding('utf8');
        status.on('data', (chunk: string) => (report += chunk));
        status.once('close', () => {
          const failure = describeHelperFailure(spec, report);
          if (failure) reject(new Error(failure));
          else started();
        });
      });
    });
  }

  async runToCompletion(spec: SpawnSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean }> {
    let stopKilling = () => undefined as void;
    let timedOut = false;
    try {
      const exit = await new Promise<ExitInfo>((resolve, reject) => {
        this.spawn(spec, resolve).then((handle) => {
          stopKilling = killAtTimeout(timeoutMs, abort, () => {
            timedOut = true;
            this.signal(handle.pid, 'SIGKILL', true);
          });
        }, reject);
      });
      return { ...exit, timedOut };
    } catch (err) {
      return { code: null, signal: null, error: (err as Error).message, timedOut };
    } finally {
      stopKilling();
    }
  }

  capture(spec: CaptureSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean; output: string }> {
    return captureWithChildProcess(spec, timeoutMs, abort);
  }

  /** Child_process keeps nothing across a daemon restart. */
  async recover(): Promise<Recovered> {
    return { live: [], exited: [] };
  }

  async close(): Promise<void> {
    for (const pid of [...this.adopted.keys()]) this.unwatch(pid);
  }

  signal(pid: number, signal: SignalName, group: boolean): void {
    try {
      process.kill(group ? -pid : pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      if (group) this.signal(pid, signal, false); // the leader may have left its group
    }
  }

  startTimeOf(pid: number): number | null {
    return procStartTime(pid);
  }

  findProgramProcesses(root: string): ProgramProcess[] {
    const found: ProgramProcess[] = [];
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
      const fields = readStat(pid);
      // Only session leaders (svc starts every process in its own session), never zombies.
      if (!fields || fields[0] === 'Z' || statField(fields, 6) !== pid) continue;
      let raw: string;
      try {
        raw = readFileSync(`/proc/${pid}/environ`, 'latin1');
      } catch {
        continue; // gone, or another user's process we may not read (not ours then)
      }
      const role = roleOf(parseEnviron(raw), root);
      if (role) found.push({ pid, startTime: statField(fields, 22), startedAtMs: startTimeToMs(statField(fields, 22)), ...role });
    }
    return found;
  }

  watchAdopted(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void {
    this.adopted.set(handle.pid, { handle, onExit });
    this.adoptedTimer ??= setInterval(() => this.pollAdopted(), ADOPTED_POLL_MS).unref();
    return () => this.unwatch(handle.pid);
  }

  private pollAdopted(): void {
    for (const [pid, { handle, onExit }] of this.adopted) {
      if (procStartTime(pid) === handle.startTime) continue;
      this.unwatch(pid);
      killGroupRemnants(pid);
      onExit({ code: null, signal: null }); // not our child: the exit status cannot be known
    }
  }

  private unwatch(pid: number): void {
    this.adopted.delete(pid);
    if (this.adopted.size === 0 && this.adoptedTimer) {
      clearInterval(this.adoptedTimer);
      this.adoptedTimer = null;
    }
  }

  async sampleUsage(pids: number[]): Promise<Map<number, UsageSample>> {
    const now = Date.now();
    const out = new Map<number, UsageSample>();
    for (const pid of pids) {
      const fields = readStat(pid);
      if (!fields) continue;
      const ticks = statField(fields, 14) + statField(fields, 15);
      const memory = statField(fields, 24) * PAGE_SIZE;
      const previous = this.cpuTicks.get(pid);
      this.cpuTicks.set(pid, { ticks, at: now });
      const elapsed = previous ? (now - previous.at) / 1000 : 0;
      const cpu = previous && elapsed > 0 ? ((ticks - previous.ticks) / CLOCK_TICKS / elapsed) * 100 : 0;
      out.set(pid, { cpu: Math.max(0, Math.round(cpu * 10) / 10), memory });
    }
    return out;
  }

  readTextFile(path: string, as?: ReadAs): string {
    return readEnvFileBounded(path, as);
  }

  async createLogFiles(paths: readonly string[]): Promise<void> {
    await Promise.all([...new Set(paths)].map(createLogFile));
  }

  lookupUser(nameOrId: string | number): UserInfo | null {
    return this.users.lookupUser(nameOrId);
  }

  lookupGroup(nameOrId: string | number): number | null {
    return this.users.lookupGroup(nameOrId);
  }

  uid(): number {
    return process.getuid?.() ?? -1;
  }
}

/** Program log files, as svc-spawner creates them (native/spawner/spawn-request.c). */
const LOG_FILE_MODE = 0o640;

async function createLogFile(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await (await open(path, 'a', LOG_FILE_MODE)).close();
}

function openLog(path: string): number {
  mkdirSync(dirname(path), { recursive: true });
  return openSync(path, 'a', LOG_FILE_MODE);
}

function closeFds(...fds: (number | undefined)[]): void {
  for (const fd of new Set(fds)) if (fd !== undefined) closeSync(fd);
}

/** systemd's control-group mode, for a process group: when the leader ends, so does the rest. */
function killGroupRemnants(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty
  }
}

/** Calls `kill` at the timeout, or when `abort` fires (at once if it has); returns what cancels both. */
export function killAtTimeout(timeoutMs: number, abort: AbortSignal | undefined, kill: () => void): () => void {
  if (abort?.aborted) {
    kill();
    return () => undefined;
  }
  const timer = setTimeout(kill, timeoutMs);
  abort?.addEventListener('abort', kill, { once: true });
  return () => {
    clearTimeout(timer);
    abort?.removeEventListener('abort', kill);
  };
}

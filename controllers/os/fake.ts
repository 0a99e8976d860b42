import type { CaptureSpec, ExitInfo, OsPort, ProcessHandle, ProgramProcess, Recovered, SignalName, SpawnSpec, UsageSample, UserInfo } from './port.js';
import { roleOf } from './process-role.js';

interface FakeProcess {
  pid: number;
  spec: SpawnSpec;
  onExit: (exit: ExitInfo) => void;
  alive: boolean;
  signals: SignalName[];
}

const SIGNAL_NUMBERS: Record<SignalName, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGUSR1: 10, SIGUSR2: 12, SIGTERM: 15 };

/**
 * An in-memory OS for controller tests. Processes live until the test ends them with `exit`,
 * or until a signal they do not ignore arrives (SIGKILL always ends them).
 */
export class FakeOs implements OsPort {
  readonly processes = new Map<number, FakeProcess>();
  readonly files = new Map<string, string>();
  private nextPid = 1000;
  /** Commands whose spawn fails, with the message. */
  readonly failSpawn = new Map<string, string>();
  /** Pids that ignore SIGTERM (to test escalation to SIGKILL). */
  readonly ignoreTerm = new Set<number>();
  spawnCount = 0;
  rootUser = false;
  /** When processes started (Unix ms), as /proc would tell; unknown for the others. */
  readonly startedAt = new Map<number, number>();

  async spawn(spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> {
    const failure = this.failSpawn.get(spec.file);
    if (failure) throw new Error(failure);
    const pid = this.nextPid++;
    this.spawnCount++;
    this.processes.set(pid, { pid, spec, onExit, alive: true, signals: [] });
    return { pid, startTime: pid * 10 };
  }

  /** Hook runs, and the exit code each hook command returns (default 0). */
  readonly hookRuns: SpawnSpec[] = [];
  readonly hookExitCodes = new Map<string, number>();

  /** While set, hook commands do not finish until `releaseHooks` (a hook that takes long). */
  holdHooks = false;
  private held: (() => void)[] = [];

  async runToCompletion(spec: SpawnSpec, _timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean }> {
    this.hookRuns.push(spec);
    let killed = abort?.aborted === true;
    if (this.holdHooks && !killed) {
      // A held run ends when released, or killed (SIGKILL to its group) when `abort` fires.
      await new Promise<void>((resolve) => {
        this.held.push(resolve);
        abort?.addEventListener('abort', () => ((killed = true), resolve()), { once: true });
      });
    }
    if (killed) return { code: null, signal: 9, timedOut: true };
    return { code: this.hookExitCodes.get(spec.file) ?? 0, signal: null, timedOut: false };
  }

  /** Lets every held hook finish. */
  releaseHooks(): void {
    this.holdHooks = false;
    for (const release of this.held.splice(0)) release();
  }

  /** Captured runs (exec probes), and what each command returns (default exit 0, no output). */
  readonly captureRuns: CaptureSpec[] = [];
  readonly captureResults = new Map<string, { code: number | null; signal?: number | null; output?: string; timedOut?: boolean; error?: string }>();

  async capture(spec: CaptureSpec, _timeoutMs: number): Promise<ExitInfo & { timedOut: boolean; output: string }> {
    this.captureRuns.push(spec);
    const r = this.captureResults.get(spec.file) ?? { code: 0 };
    return { code: r.code, signal: r.signal ?? null, timedOut: r.timedOut ?? false, output: r.output ?? '', ...(r.error ? { error: r.error } : {}) };
  }

  /**
   * What recover() returns: set it to play a spawner that outlived the previous daemon. A live
   * entry should also be a process (see `surviving`); an exited one is reported to watchAdopted.
   */
  recovered: Recovered = { live: [], exited: [] };
  closed = false;

  async recover(): Promise<Recovered> {
    return this.recovered;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** A process left by a previous daemon (no onExit yet: watchAdopted sets it). */
  surviving(spec: SpawnSpec): ProcessHandle {
    const pid = this.nextPid++;
    this.processes.set(pid, { pid, spec, onExit: () => undefined, alive: true, signals: [] });
    return { pid, startTime: pid * 10 };
  }

  /** Ends a process as if it exited by itself. */
  exit(pid: number, code: number | null, signal: number | null = null): void {
    const proc = this.processes.get(pid);
    if (!proc?.alive) throw new Error(`fake process ${pid} is not alive`);
    proc.alive = false;
    proc.onExit({ code, signal });
  }

  signal(pid: number, signal: SignalName, _group: boolean): void {
    const proc = this.processes.get(pid);
    if (!proc?.alive) return;
    proc.signals.push(signal);
    const ignored = signal === 'SIGTERM' && this.ignoreTerm.has(pid);
    if (signal === 'SIGKILL' || (['SIGTERM', 'SIGINT', 'SIGQUIT'].includes(signal) && !ignored)) {
      proc.alive = false;
      proc.onExit({ code: null, signal: SIGNAL_NUMBERS[signal] });
    }
  }

  startTimeOf(pid: number): number | null {
    if (this.processes.get(pid)?.alive) return pid * 10;
    return this.recovered.exited.find((e) => e.pid === pid)?.startTime ?? null;
  }

  findProgramProcesses(root: string): ProgramProcess[] {
    return this.alive().flatMap((p) => {
      const found = roleOf(p.spec.env, root);
      const startedAt = this.startedAt.get(p.pid);
      return found ? [{ pid: p.pid, startTime: p.pid * 10, ...found, ...(startedAt === undefined ? {} : { startedAtMs: startedAt }) }] : [];
    });
  }


  watchAdopted(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void {
    const ended = this.recovered.exited.find((e) => e.pid === handle.pid && e.startTime === handle.startTime);
    if (ended) {
      // As the spawner: an exit kept across the restart is reported once, after the call returns.
      this.recovered.exited = this.recovered.exited.filter((e) => e !== ended);
      queueMicrotask(() => onExit(ended.exit));
      return () => undefined;
    }
    const proc = this.processes.get(handle.pid);
    if (proc) proc.onExit = onExit;
    return () => undefined;
  }

  async sampleUsage(pids: number[]): Promise<Map<number, UsageSample>> {
    return new Map(pids.filter((p) => this.processes.get(p)?.alive).map((p) => [p, { cpu: 1, memory: 1024 * 1024 }]));
  }

  /** Log files created ahead of a run (createLogFiles), in call order. */
  readonly createdLogFiles: string[] = [];

  async createLogFiles(paths: readonly string[]): Promise<void> {
    this.createdLogFiles.push(...paths);
  }

  readTextFile(path: string): string {
    const text = this.files.get(path);
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    return text;
  }

  /** Users lookupUser knows, by name (nobody; tests add others). */
  readonly users = new Map<string, UserInfo>([['nobody', { name: 'nobody', uid: 65534, gid: 65534, home: '/nonexistent', groups: [] }]]);

  lookupUser(nameOrId: string | number): UserInfo | null {
    return [...this.users.values()].find((u) => u.name === nameOrId || u.uid === nameOrId) ?? null;
  }

  lookupGroup(nameOrId: string | number): number | null {
    return nameOrId === 'nogroup' || nameOrId === 65534 ? 65534 : null;
  }

  uid(): number {
    return this.rootUser ? 0 : 1000;
  }

  alive(): FakeProcess[] {
    return [...this.processes.values()].filter((p) => p.alive);
  }
}

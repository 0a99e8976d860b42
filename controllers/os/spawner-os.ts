import { constants } from 'node:os';
import type { Socket } from 'node:net';
import { LinuxOs } from './linux.js';
import type { CaptureSpec, ExitInfo, OsPort, ProcessHandle, Recovered, RecoveredProcess, SignalName, SpawnSpec, UsageSample, UserInfo } from './port.js';
import { SpawnerConnection, SpawnerRequestError } from './spawner/connection.js';
import { describeSpawnFailure, exitOf, liveOf, spawnFields, type SpawnerExit } from './spawner/frames.js';
import { connectSocket, startSpawner, type SpawnerLocation } from './spawner/launch.js';
import { Field, i32, Msg, u64, WIRE_VERSION, type Frame } from './spawner/protocol.js';

export interface SpawnerOsOptions extends SpawnerLocation {
  /** One line for each problem: the spawner lost, restarted, or given up for child_process. */
  warn: (msg: string) => void;
  /** How often a lost spawner is started again before child_process takes over for good. */
  maxRestarts?: number;
}

type Done = (exit: ExitInfo, output: string) => void;

/** Exits nobody waits for yet are kept this many at most (oldest dropped). */
const MAX_UNCLAIMED = 10_000;

/**
 * The OS port over svc-spawner (native/spawner): programs are started, signalled and reaped by a
 * small C process in its own session, which keeps them and their exits when svcd dies and hands
 * both to the next svcd (`recover`). /proc readings, users and files are LinuxOs's. If the
 * spawner goes away, its children are watched through /proc (exit status unknown), a new one
 * is started, and after `maxRestarts` losses child_process takes over.
 */
export class SpawnerOs implements OsPort {
  private conn: SpawnerConnection | null = null;
  private reconnecting: Promise<void> | null = null;
  private readonly waiters = new Map<number, { startTime: number; done: Done }>();
  /** Exits that arrived before anyone watched them (recovered ones, or ahead of a SPAWNED). */
  private readonly unclaimed = new Map<number, SpawnerExit>();
  /** Live children of the spawner not watched yet (from HELLO). */
  private readonly liveKnown = new Map<number, RecoveredProcess>();
  /** Pids watched through /proc: not the current spawner's children. */
  private readonly foreign = new Set<number>();
  private recovered: Recovered = { live: [], exited: [] };
  private ackSerial = 0;
  private ackScheduled = false;
  private restarts = 0;
  private closed = false;
  /** The spawner process (for diagnostics and tests). */
  spawnerPid = 0;

  private constructor(
    private readonly opts: SpawnerOsOptions,
    private readonly linux: LinuxOs,
  ) {}

  /** Connects to the spawner left by a previous svcd, or starts one; rejects when neither works. */
  static async start(opts: SpawnerOsOptions, linux = new LinuxOs()): Promise<SpawnerOs> {
    const os = new SpawnerOs(opts, linux);
    await os.connect();
    os.recovered = {
      live: [...os.liveKnown.values()],
      exited: [...os.unclaimed.values()].map(({ pid, startTime, startedAt, tag, exit }) => ({ pid, startTime, startedAt, tag, exit })),
    };
    return os;
  }

  private async connect(): Promise<void> {
    const existing = await connectSocket(this.opts.socketPath).catch(() => null);
    if (existing) {
      try {
        await this.hello(existing);
        return;
      } catch {
        // A spawner on its way out (its daemon said BYE): start a fresh one below.
        existing.destroy();
      }
    }
    await startSpawner(this.opts);
    await this.hello(await connectSocket(this.opts.socketPath));
  }

  private async hello(socket: Socket): Promise<void> {
    const conn: SpawnerConnection = new SpawnerConnection(socket, {
      frame: (f) => this.onFrame(f),
      error: (err) => this.opts.warn(`svc-spawner: ${err.message}`),
      closed: (reason, byUs) => this.onClosed(conn, reason, byUs),
    });
    this.conn = conn;
    this.ackSerial = 0;
    try {
      const ok = await conn.request(Msg.HELLO, [[Field.VERSION, { u32: WIRE_VERSION }]]);
      this.spawnerPid = i32(ok, Field.PID);
    } catch (err) {
      this.conn = null;
      conn.close();
      throw err;
    }
  }

  private onFrame(f: Frame): void {
    if (f.type === Msg.LIVE) {
      const live = liveOf(f);
      this.liveKnown.set(live.pid, live);
    } else if (f.type === Msg.EXIT) {
      const e = exitOf(f);
      this.liveKnown.delete(e.pid);
      const w = this.waiters.get(e.pid);
      if (w && w.startTime === e.startTime) {
        this.waiters.delete(e.pid);
        this.deliver(e, w.done);
      } else {
        this.unclaimed.set(e.pid, e);
        if (this.unclaimed.size > MAX_UNCLAIMED) this.unclaimed.delete(this.unclaimed.keys().next().value as number);
      }
    }
  }

  private onClosed(conn: SpawnerConnection, reason: string, byUs: boolean): void {
    if (conn !== this.conn) return;
    this.conn = null;
    if (byUs || this.closed) return;
    // Its children now belong to init: only /proc can tell when they end.
    for (const [pid, w] of this.waiters) this.watchForeign({ pid, startTime: w.startTime }, (exit) => w.done(exit, ''));
    this.waiters.clear();
    this.liveKnown.clear();
    if (this.restarts >= (this.opts.maxRestarts ?? 3)) {
      this.opts.warn(`svc-spawner lost (${reason}); programs are started with Node's child_process from now on`);
      return;
    }
    this.restarts++;
    this.opts.warn(`svc-spawner lost (${reason}); starting a new one`);
    this.reconnecting = this.connect()
      .catch((err: unknown) => this.opts.warn(`svc-spawner could not be started again (${(err as Error).message}); programs are started with Node's child_process`))
      .finally(() => (this.reconnecting = null));
  }

  private async connection(): Promise<SpawnerConnection | null> {
    if (this.reconnecting) await this.reconnecting;
    return this.conn;
  }

  private deliver(e: SpawnerExit, done: Done): void {
    done(e.exit, e.output);
    this.ackSerial = Math.max(this.ackSerial, e.serial);
    if (this.ackScheduled) return;
    this.ackScheduled = true;
    // One ACK for a burst of exits; the spawner drops what is acknowledged.
    setImmediate(() => {
      this.ackScheduled = false;
      this.conn?.send(Msg.ACK, [[Field.SERIAL, { u64: this.ackSerial }]]);
    });
  }

  /** Routes the child's exit to done; an exit that came first is delivered on the next turn. */
  private watch(handle: ProcessHandle, done: Done): void {
    const early = this.unclaimed.get(handle.pid);
    if (early && early.startTime === handle.startTime) {
      this.unclaimed.delete(handle.pid);
      setImmediate(() => this.deliver(early, done));
      return;
    }
    this.waiters.set(handle.pid, { startTime: handle.startTime, done });
  }

  private watchForeign(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void {
    this.foreign.add(handle.pid);
    const stop = this.linux.watchAdopted(handle, (exit) => {
      this.foreign.delete(handle.pid);
      onExit(exit);
    });
    return () => {
      this.foreign.delete(handle.pid);
      stop();
    };
  }

  private async start(conn: SpawnerConnection, spec: Omit<SpawnSpec, 'stdoutPath' | 'stderrPath'> & Partial<SpawnSpec>, capture: boolean): Promise<ProcessHandle> {
    try {
      const reply = await conn.request(Msg.SPAWN, spawnFields(spec, capture));
      return { pid: i32(reply, Field.PID), startTime: u64(reply, Field.START_TIME) };
    } catch (err) {
      throw new Error(err instanceof SpawnerRequestError ? describeSpawnFailure(spec, err) : `${spec.file}: ${(err as Error).message}`);
    }
  }

  async spawn(spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> {
    const conn = await this.connection();
    if (!conn) return this.linux.spawn(spec, onExit);
    const handle = await this.start(conn, spec, false);
    this.watch(handle, (exit) => onExit(exit));
    return handle;
  }

  async runToCompletion(spec: SpawnSpec, timeoutMs: number): Promise<ExitInfo & { timedOut: boolean }> {
    const { output: _output, ...result } = await this.runWithTimeout({ ...spec, tag: undefined }, timeoutMs, false);
    return result;
  }

  async capture(spec: CaptureSpec, timeoutMs: number): Promise<ExitInfo & { timedOut: boolean; output: string }> {
    return this.runWithTimeout({ ...spec, tag: undefined }, timeoutMs, true);
  }

  private async runWithTimeout(spec: CaptureSpec & Partial<SpawnSpec>, timeoutMs: number, capture: boolean): Promise<ExitInfo & { timedOut: boolean; output: string }> {
    const conn = await this.connection();
    if (!conn) {
      if (capture) return this.linux.capture(spec, timeoutMs);
      return { ...(await this.linux.runToCompletion(spec as SpawnSpec, timeoutMs)), output: '' };
    }
    let handle: ProcessHandle;
    try {
      handle = await this.start(conn, spec, capture);
    } catch (err) {
      return { code: null, signal: null, error: (err as Error).message, timedOut: false, output: '' };
    }
    return new Promise((resolve) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        this.signal(handle.pid, 'SIGKILL', true);
      }, timeoutMs);
      this.watch(handle, (exit, output) => {
        clearTimeout(timer);
        resolve({ ...exit, timedOut, output });
      });
    });
  }

  signal(pid: number, signal: SignalName, group: boolean): void {
    const conn = this.conn;
    if (!conn || this.foreign.has(pid)) {
      this.linux.signal(pid, signal, group);
      return;
    }
    const fields: [number, { i32: number } | { u32: number }][] = [
      [Field.PID, { i32: pid }],
      [Field.SIGNO, { i32: constants.signals[signal] }],
      [Field.GROUP, { u32: group ? 1 : 0 }],
    ];
    conn.request(Msg.SIGNAL, fields).catch((err: unknown) => {
      // ESRCH: already gone (its exit is on its way). A lost connection is reported by onClosed.
      if (err instanceof SpawnerRequestError && err.code !== 'ESRCH') this.opts.warn(`svc-spawner: ${signal} to ${pid}: ${err.message}`);
    });
  }

  startTimeOf(pid: number): number | null {
    return this.linux.startTimeOf(pid) ?? this.unclaimed.get(pid)?.startTime ?? null;
  }

  watchAdopted(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void {
    const live = this.liveKnown.get(handle.pid);
    const ended = this.unclaimed.get(handle.pid);
    if ((live && live.startTime === handle.startTime) || (ended && ended.startTime === handle.startTime)) {
      this.liveKnown.delete(handle.pid);
      this.watch(handle, (exit) => onExit(exit));
      return () => this.waiters.delete(handle.pid);
    }
    return this.watchForeign(handle, onExit); // started by child_process, or by a spawner since lost
  }

  async recover(): Promise<Recovered> {
    return this.recovered;
  }

  async close(): Promise<void> {
    this.closed = true;
    const conn = this.conn;
    if (conn) {
      if (this.ackSerial > 0) conn.send(Msg.ACK, [[Field.SERIAL, { u64: this.ackSerial }]]);
      // BYE: the spawner exits once its last child has. A spawner that does not answer is left be.
      const bye = conn.request(Msg.BYE, []).catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([bye, new Promise((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
      conn.close();
    }
    await this.linux.close();
  }

  sampleUsage(pids: number[]): Promise<Map<number, UsageSample>> {
    return this.linux.sampleUsage(pids);
  }

  readTextFile(path: string): string {
    return this.linux.readTextFile(path);
  }

  lookupUser(nameOrId: string | number): UserInfo | null {
    return this.linux.lookupUser(nameOrId);
  }

  lookupGroup(nameOrId: string | number): number | null {
    return this.linux.lookupGroup(nameOrId);
  }

  uid(): number {
    return this.linux.uid();
  }
}

import { constants } from 'node:os';
import type { Socket } from 'node:net';
import { killAtTimeout, LinuxOs } from './linux.js';
import type { CaptureSpec, ExitInfo, OsPort, ProcessHandle, Recovered, RecoveredProcess, SignalName, SpawnSpec } from './port.js';
import { FrameTooLargeError, SpawnerConnection, SpawnerRequestError } from './spawner/connection.js';
import { describeSpawnFailure, exitOf, liveOf, spawnFields } from './spawner/frames.js';
import { ExitRouter } from './spawner/exit-router.js';
import { connectSocket, startSpawner, type SpawnerLocation } from './spawner/launch.js';
import { Feature, Field, i32, MAX_FRAME, Msg, u64, WIRE_VERSION, type Frame } from './spawner/protocol.js';

export interface SpawnerOsOptions extends SpawnerLocation {
  /** One line for each problem: the spawner lost, restarted, or given up for child_process. */
  warn: (msg: string) => void;
  /** How often a lost spawner is started again before child_process takes over for good. */
  maxRestarts?: number;
}

/**
 * The OS port over svc-spawner (native/spawner): programs are started, signalled and reaped by a
 * small C process in its own session, which keeps them and their exits when svcd dies and hands
 * both to the next svcd (`recover`). /proc readings, users and files are LinuxOs's. If the
 * spawner goes away, its children are watched through /proc (exit status unknown), a new one
 * is started, and after `maxRestarts` losses child_process takes over.
 */
export class SpawnerOs extends LinuxOs implements OsPort {
  private conn: SpawnerConnection | null = null;
  private reconnecting: Promise<void> | null = null;
  private readonly exits = new ExitRouter((serial) => this.conn?.send(Msg.ACK, [[Field.SERIAL, { u64: serial }]]));
  /** Live children of the spawner not watched yet (from HELLO). */
  private readonly liveKnown = new Map<number, RecoveredProcess>();
  /** Pids watched through /proc: not the current spawner's children. */
  private readonly foreign = new Set<number>();
  private recovered: Recovered = { live: [], exited: [] };
  private restarts = 0;
  private closed = false;
  /** The spawner process (for diagnostics and tests). */
  spawnerPid = 0;
  /** What the connected spawner understands (Feature bits). */
  private features = 0;
  /** Features missing from the connected spawner that a spawn has needed (each warned about once). */
  private readonly warnedMissing = new Set<number>();

  private constructor(private readonly opts: SpawnerOsOptions) {
    super();
  }

  /** Connects to the spawner left by a previous svcd, or starts one; rejects when neither works. */
  static async start(opts: SpawnerOsOptions): Promise<SpawnerOs> {
    const os = new SpawnerOs(opts);
    await os.connect();
    os.recovered = {
      live: [...os.liveKnown.values()],
      exited: os.exits.unclaimedExits().map(({ pid, startTime, startedAt, tag, exit }) => ({ pid, startTime, startedAt, tag, exit })),
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
    this.exits.resetAcks();
    try {
      const ok = await conn.request(Msg.HELLO, [[Field.VERSION, { u32: WIRE_VERSION }]]);
      this.spawnerPid = i32(ok, Field.PID);
      this.features = ok.fields.has(Field.FEATURES) ? i32(ok, Field.FEATURES) : 0;
      this.warnedMissing.clear();
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
      this.exits.arrived(e);
    }
  }

  private onClosed(conn: SpawnerConnection, reason: string, byUs: boolean): void {
    if (conn !== this.conn) return;
    this.conn = null;
    if (byUs || this.closed) return;
    // Its children now belong to init: only /proc can tell when they end.
    for (const [handle, done] of this.exits.takeWaiters()) this.watchForeign(handle, (exit) => done(exit, ''));
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

  private watchForeign(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void {
    this.foreign.add(handle.pid);
    const stop = super.watchAdopted(handle, (exit) => {
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
      const reply = await conn.request(Msg.SPAWN, spawnFields(this.supported(spec), capture));
      return { pid: i32(reply, Field.PID), startTime: u64(reply, Field.START_TIME) };
    } catch (err) {
      if (err instanceof FrameTooLargeError) throw new Error(`command, args and env take ${err.bytes} bytes, more than svc-spawner takes in one request (${MAX_FRAME} bytes; exec's own limit, ARG_MAX, is lower still)`);
      throw new Error(err instanceof SpawnerRequestError ? describeSpawnFailure(spec, err) : `${spec.file}: ${(err as Error).message}`);
    }
  }

  /**
   * The spec as the connected spawner can take it. An older svc-spawner, kept running across an
   * upgrade because it holds the programs, refuses fields it does not know: without them the
   * program starts as that version of svc started it, and svcd says so once.
   */
  private supported<S extends Partial<SpawnSpec>>(spec: S): S {
    let out = spec;
    if (spec.groups?.length && this.lacks(Feature.GROUPS, 'supplementary groups: programs with a user start without them')) out = { ...out, groups: undefined };
    if (spec.openFilesLimit !== undefined && this.lacks(Feature.NOFILE, "[supervisor] limit_nofile: programs start with svcd's open-files limit")) {
      out = { ...out, openFilesLimit: undefined };
    }
    return out;
  }

  /** True when the connected spawner lacks `feature`; says so, with what that means, once per spawner. */
  private lacks(feature: number, consequence: string): boolean {
    if (this.features & feature) return false;
    if (!this.warnedMissing.has(feature)) {
      this.warnedMissing.add(feature);
      this.opts.warn(`svc-spawner (pid ${this.spawnerPid}) predates ${consequence} until it is replaced (it exits after \`svc shutdown\` once its programs have ended)`);
    }
    return true;
  }

  override async spawn(spec: SpawnSpec, onExit: (exit: ExitInfo) => void): Promise<ProcessHandle> {
    const conn = await this.connection();
    if (!conn) return super.spawn(spec, onExit);
    const handle = await this.start(conn, spec, false);
    this.exits.watch(handle, (exit, _output, failure) => onExit(failure ? { ...exit, error: describeSpawnFailure(spec, failure) } : exit));
    return handle;
  }

  override async runToCompletion(spec: SpawnSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean }> {
    const { output: _output, ...result } = await this.runWithTimeout({ ...spec, tag: undefined }, timeoutMs, false, abort);
    return result;
  }

  override async capture(spec: CaptureSpec, timeoutMs: number, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean; output: string }> {
    return this.runWithTimeout({ ...spec, tag: undefined }, timeoutMs, true, abort);
  }

  private async runWithTimeout(spec: CaptureSpec & Partial<SpawnSpec>, timeoutMs: number, capture: boolean, abort?: AbortSignal): Promise<ExitInfo & { timedOut: boolean; output: string }> {
    const conn = await this.connection();
    if (!conn) {
      if (capture) return super.capture(spec, timeoutMs, abort);
      return { ...(await super.runToCompletion(spec as SpawnSpec, timeoutMs, abort)), output: '' };
    }
    let handle: ProcessHandle;
    try {
      handle = await this.start(conn, spec, capture);
    } catch (err) {
      return { code: null, signal: null, error: (err as Error).message, timedOut: false, output: '' };
    }
    return new Promise((resolve) => {
      let timedOut = false;
      const stopKilling = killAtTimeout(timeoutMs, abort, () => {
        timedOut = true;
        this.signal(handle.pid, 'SIGKILL', true);
      });
      this.exits.watch(handle, (exit, output, failure) => {
        stopKilling();
        resolve({ ...exit, timedOut, output, ...(failure ? { error: describeSpawnFailure(spec, failure) } : {}) });
      });
    });
  }

  override signal(pid: number, signal: SignalName, group: boolean): void {
    const conn = this.conn;
    if (!conn || this.foreign.has(pid)) {
      super.signal(pid, signal, group);
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

  override startTimeOf(pid: number): number | null {
    return super.startTimeOf(pid) ?? this.exits.heldStartTime(pid);
  }

  override watchAdopted(handle: ProcessHandle, onExit: (exit: ExitInfo) => void): () => void {
    const live = this.liveKnown.get(handle.pid);
    if ((live && live.startTime === handle.startTime) || this.exits.held(handle)) {
      this.liveKnown.delete(handle.pid);
      this.exits.watch(handle, (exit) => onExit(exit));
      return () => this.exits.unwatch(handle.pid);
    }
    return this.watchForeign(handle, onExit); // started by child_process, or by a spawner since lost
  }

  override async recover(): Promise<Recovered> {
    return this.recovered;
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.reconnecting) await this.reconnecting; // else a late connection would stay open
    const conn = this.conn;
    if (conn) {
      if (this.exits.delivered > 0) conn.send(Msg.ACK, [[Field.SERIAL, { u64: this.exits.delivered }]]);
      // BYE: the spawner exits once its last child has. A spawner that does not answer is left be.
      const bye = conn.request(Msg.BYE, []).catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([bye, new Promise((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
      conn.close();
    }
    await super.close();
  }
}

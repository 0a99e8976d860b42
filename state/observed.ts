import { EventEmitter } from 'node:events';
import type { IsolationView } from './isolation.js';
import type { OtaView } from './ota.js';
import type { ReloadOutcome, ReloadView } from './reload.js';
import type { ProgramStatus } from './status.js';

/** Why the last process ended, as data. */
export interface LastExit {
  exit_code: number | null;
  signal: number | null;
  /** Unix milliseconds. */
  at: number;
  duration_ms: number;
  /** crash, exit, stop, restart, remove, shutdown, spawn_failed, adopted_gone, health... */
  reason: string;
  msg: string;
}

/** One probe outcome. */
export interface ProbeResult {
  /** Unix ms when the probe finished. */
  at: number;
  ok: boolean;
  latency_ms: number;
  message: string;
}

/** The health controller's verdict for the current process of a program. */
export interface HealthView {
  /** null until the first verdict (and during start_period). */
  healthy: boolean | null;
  failures: number;
  successes: number;
  last: ProbeResult | null;
  /** The most recent results, newest last (at most 10). */
  recent: ProbeResult[];
}

/** How the last cron run ended (cron controller; docs/cron.md). */
export interface CronLastRun {
  /** The schedule slot it ran for (Unix ms); for a manual trigger, the request time. */
  slot: number;
  /** Unix ms; null when the spawn failed. */
  started_at: number | null;
  exit_code: number | null;
  signal: number | null;
  duration_secs: number;
  /** ok, failed, spawn_failed, kill_after, overlap, stop, remove, shutdown. */
  reason: string;
  msg: string;
}

/** The schedule side of a cron program, published by the cron controller. */
export interface CronObserved {
  /** Unix ms of the next firing (jitter included once drawn); null while paused. */
  next_fire_at: number | null;
  /** Runs in flight (including runs being stopped). */
  running: number;
  /** Firings waiting for a free slot (on_overlap = queue). */
  queued: number;
  /** Firings skipped (on_overlap = skip) and dropped (queue full) since the daemon started. */
  skipped: number;
  dropped: number;
  last_run: CronLastRun | null;
}

/**
 * A controller asks for the program's process to be restarted (a condition, read by the process
 * planner): honoured only while `pid` is the live process, so a stale request is harmless.
 */
export interface RestartRequest {
  pid: number;
  reason: string;
  /** true: a deliberate restart (like `svc restart`, OTA); false: a failure judged by the restart policy (health). */
  planned: boolean;
}

/**
 * What controllers observed about one program; views read it, never the OS. Each field has one
 * writer (docs/architecture.md, "Conditions"): the process or cron controller (status, pid,
 * retries, last_exit...), the health controller (`health`, `restart_requests.health`), the usage
 * sampler (cpu_usage, mem_usage), and later controllers their own field.
 */
export interface ObservedProgram {
  status: ProgramStatus;
  pid: number | null;
  /** Unix milliseconds the current process started. */
  started_at: number | null;
  /** Restarts since the last stable run (startsecs) or manual start. */
  retries: number;
  /** Total restarts by policy since the daemon started. */
  restarts: number;
  /** Unix milliseconds of the next retry while in Backoff. */
  next_retry_at: number | null;
  last_exit: LastExit | null;
  /** Percent of one core, averaged over the last sample interval (main process). */
  cpu_usage: number;
  /** Resident set size in bytes (main process). */
  mem_usage: number;
  /** Free-form status detail (e.g. "waiting for db"). */
  detail: string | null;
  /** The intent sequence numbers the controller has acted on (lets a request wait for its effect). */
  applied_start_seq: number;
  applied_restart_seq: number;
  /** Health verdict and recent probe results; null without an enabled health check or process. */
  health: HealthView | null;
  /** Present for cron programs only (cron controller). */
  cron?: CronObserved;
  /**
   * The pid of the process a program that just gained `cron` ran as a service, while the process
   * controller stops it; absent otherwise. The cron controller's firings wait for it to go.
   */
  former_pid?: number;
  /** Restart requests by controller name (health, ota); see RestartRequest. */
  restart_requests?: Readonly<Record<string, RestartRequest>>;
  /** Present for programs with an `artifact` (OTA controller; docs/ota.md). */
  ota?: OtaView;
  /** Present for programs with `resource_limits` (isolation controller; docs/isolation.md). */
  isolation?: IsolationView;
  /** The second process while a reload is under way (process controller; state/reload.ts); null or absent otherwise. */
  reload?: ReloadView | null;
  /** How the last reload request ended (process controller). */
  last_reload?: ReloadOutcome | null;
  /** The intent reload_seq the process controller has acted on (absent = 0). */
  applied_reload_seq?: number;
  /** The health verdict of a reload's successor process, with its pid (health controller). */
  successor_health?: (HealthView & { pid: number }) | null;
}

/** One published change: the entry before and after (null when absent). */
export interface ObservedChange {
  id: string;
  prev: ObservedProgram | null;
  next: ObservedProgram | null;
}

/**
 * How long after the last read of usage figures they are kept sampled every interval (watch
 * streams note a read every few seconds); after that, nothing samples until the next read.
 */
export const USAGE_DEMAND_WINDOW_MS = 15_000;

export const INITIAL_OBSERVED: ObservedProgram = {
  status: 'Stopped',
  pid: null,
  started_at: null,
  retries: 0,
  restarts: 0,
  next_retry_at: null,
  last_exit: null,
  cpu_usage: 0,
  mem_usage: 0,
  detail: null,
  applied_start_seq: 0,
  applied_restart_seq: 0,
  health: null,
};

/**
 * In-memory observed state published by controllers. Views get a snapshot with `get`/`all`
 * and follow changes with `subscribe`; nothing here touches the OS or disk.
 */
export class ObservedRegistry {
  private readonly programs = new Map<string, ObservedProgram>();
  private readonly feed = new EventEmitter();
  /** Unix ms of the last read of usage figures; the sampler stops when nobody looks. */
  lastUsageRead = -Infinity;
  private usageRefresher: (() => Promise<void>) | null = null;

  /** A view read cpu/memory figures. Wakes the sampler when reads resume after a quiet spell. */
  noteUsageRead(now: number): void {
    const quiet = !this.usageWatched(now);
    this.lastUsageRead = now;
    if (quiet) this.feed.emit('usage-demand');
  }

  /** A view is about to show cpu/memory figures: notes the read and brings them up to date. */
  async readUsage(now: number): Promise<void> {
    this.noteUsageRead(now);
    await this.usageRefresher?.();
  }

  /** The usage sampler's on-demand pass (null: figures as they are). */
  setUsageRefresher(fn: (() => Promise<void>) | null): void {
    this.usageRefresher = fn;
  }

  /** Whether a view read cpu/memory figures within the last USAGE_DEMAND_WINDOW_MS. */
  usageWatched(now: number): boolean {
    return now - this.lastUsageRead < USAGE_DEMAND_WINDOW_MS;
  }

  onUsageDemand(listener: () => void): () => void {
    this.feed.on('usage-demand', listener);
    return () => this.feed.off('usage-demand', listener);
  }

  constructor() {
    this.feed.setMaxListeners(0);
  }

  get(id: string): ObservedProgram {
    return this.programs.get(id) ?? INITIAL_OBSERVED;
  }

  has(id: string): boolean {
    return this.programs.has(id);
  }

  ids(): string[] {
    return [...this.programs.keys()];
  }

  update(id: string, patch: Partial<ObservedProgram>): void {
    const prev = this.programs.get(id) ?? null;
    const next = { ...(prev ?? INITIAL_OBSERVED), ...patch };
    this.programs.set(id, next);
    this.feed.emit('change', id, next, prev);
    this.wake(id, next);
  }

  /** Sets (or with null clears) one controller's restart request for a program. */
  requestRestart(id: string, by: string, request: RestartRequest | null): void {
    if (!this.programs.has(id)) return;
    const current = this.get(id).restart_requests ?? {};
    if (request === null && !(by in current)) return;
    const next = { ...current };
    if (request === null) delete next[by];
    else next[by] = request;
    this.update(id, { restart_requests: next });
  }

  delete(id: string): void {
    const prev = this.programs.get(id);
    if (!prev) return;
    this.programs.delete(id);
    this.feed.emit('change', id, null, prev);
    this.wake(id, null);
  }

  /**
   * Daemon-wide condition: shutdown has begun. Controllers read it in their planners (stop every
   * program, gated by dependants and priority, without touching stored intent).
   */
  get shuttingDown(): boolean {
    return this.shutdown;
  }

  beginShutdown(): void {
    if (this.shutdown) return;
    this.shutdown = true;
    this.feed.emit('shutdown');
  }

  onShutdown(listener: () => void): () => void {
    this.feed.on('shutdown', listener);
    return () => this.feed.off('shutdown', listener);
  }

  private shutdown = false;

  /** Waiters are kept per program: a change wakes only its own (no N x N work when 500 wait). */
  private readonly waiters = new Map<string, Set<(o: ObservedProgram | null) => void>>();

  private wake(id: string, observed: ObservedProgram | null): void {
    const waiting = this.waiters.get(id);
    if (waiting) for (const check of [...waiting]) check(observed);
  }

  subscribe(listener: (id: string, observed: ObservedProgram | null, prev: ObservedProgram | null) => void): () => void {
    this.feed.on('change', listener);
    return () => this.feed.off('change', listener);
  }

  /** Resolves once `done` holds for every program (or at the timeout); true when it held. */
  async waitForAll(done: (o: ObservedProgram) => boolean, timeoutMs: number): Promise<boolean> {
    const pending = [...this.programs.keys()].filter((id) => !done(this.get(id)));
    const results = await Promise.all(pending.map((id) => this.waitFor(id, (o) => o === null || done(o), timeoutMs)));
    return results.every((o) => o === null || done(o));
  }

  /** Resolves with the observed state once `done` holds (or the current state at timeout). */
  waitFor(id: string, done: (o: ObservedProgram | null) => boolean, timeoutMs: number): Promise<ObservedProgram | null> {
    const now = this.programs.get(id) ?? null;
    if (done(now)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiting = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, waiting);
      const finish = (value: ObservedProgram | null) => {
        clearTimeout(timer);
        waiting.delete(check);
        if (waiting.size === 0 && this.waiters.get(id) === waiting) this.waiters.delete(id);
        resolve(value);
      };
      const check = (observed: ObservedProgram | null) => {
        if (done(observed)) finish(observed);
      };
      waiting.add(check);
      const timer = setTimeout(() => finish(this.programs.get(id) ?? null), timeoutMs);
    });
  }
}

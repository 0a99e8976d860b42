import { createServer, type Server } from 'node:http';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SvcConfig } from '../conf/keys.js';
import type { Logger } from '../conf/logger.js';
import { createApp } from '../api/app.js';
import { applyHttpLimits, httpServerOptions } from '../api/http-limits.js';
import { createDaemonMetrics } from '../api/metrics/daemon-metrics.js';
import { LogSocket } from '../api/ws/log-socket.js';
import { LinuxOs } from '../controllers/os/linux.js';
import type { OsPort } from '../controllers/os/port.js';
import { CronController } from '../controllers/cron/controller.js';
import { ProcessController } from '../controllers/process/controller.js';
import { stopAllForShutdown } from '../controllers/process/shutdown.js';
import { UsageSampler } from '../observers/usage-sampler.js';
import { LogRotator } from '../log-files/rotation.js';
import { HealthController } from '../controllers/health/controller.js';
import { realProbes } from '../controllers/health/probes.js';
import { dependencyBlocker } from '../controllers/gates/dependency-gate.js';
import { watchForDependants } from './observed-links.js';
import { readHostStats } from '../observers/host-stats.js';
import { SystemStatsSampler } from '../observers/system-stats.js';
import { systemClock, type Clock } from '../reconciler/clock.js';
import { Reconciler, type Result } from '../reconciler/reconciler.js';
import { ProgramActions } from '../operations/actions.js';
import { EventLog } from '../state/events/event-log.js';
import { CronMarks } from '../state/cron-marks.js';
import { EventBus } from '../state/events/bus.js';
import type { SignalName } from '../state/signals.js';
import { ObservedRegistry } from '../state/observed.js';
import { initialRun, withDefaults } from '../state/program.js';
import { RuntimeStore } from '../state/runtime-store.js';
import { ProgramStore } from '../state/store.js';
import { logPaths } from '../log-files/paths.js';
import { StackApplier } from '../stacks/apply.js';
import { startStackDirectory } from '../stacks/watch.js';

export interface DaemonOptions {
  config: SvcConfig;
  log: Logger;
  version: string;
  os?: OsPort;
  clock?: Clock;
  /** Called once the daemon has stopped after a shutdown request. */
  onExit?: (code: number) => void;
}

/** Every event goes to the persistent history, and to the daemon log at debug level. */
function daemonEventBus(history: EventLog, clock: Clock, log: Logger): EventBus {
  const bus = new EventBus(clock, history.nextSeq, (err, record) => log.error('event subscriber failed', { event: record.event, error: String(err) }));
  bus.subscribe((record) => history.append(record));
  bus.subscribe((record) => log.debug(`event ${record.event}`, { ...record }));
  return bus;
}

/**
 * The running daemon: config -> store -> reconciler -> controllers -> API. Start-up order
 * matters: adopt surviving processes before the loop runs, listen only when ready.
 */
export class Daemon {
  private server: Server | null = null;
  private stopping: Promise<void> | null = null;
  private readonly cleanups: (() => void | Promise<void>)[] = [];

  private constructor(
    private readonly opts: DaemonOptions,
    private readonly store: ProgramStore,
  ) {}

  static async start(opts: DaemonOptions): Promise<Daemon> {
    const { config, log } = opts;
    mkdirSync(config.storage.log_dir, { recursive: true });
    const store = await ProgramStore.open(config.storage.data_dir);
    const daemon = new Daemon(opts, store);
    try {
      await daemon.boot();
    } catch (err) {
      await daemon.teardown();
      throw err;
    }
    log.info('svcd ready', { version: opts.version, root: config.root, listen: daemon.address(), programs: store.list().length });
    return daemon;
  }

  private controller!: ProcessController;
  private cron!: CronController;
  private reconciler!: Reconciler<string>;
  private observed!: ObservedRegistry;
  private events!: EventBus;
  private eventLog!: EventLog;
  private logSocket: LogSocket | null = null;

  private async boot(): Promise<void> {
    const { config, log } = this.opts;
    const os = this.opts.os ?? new LinuxOs();
    const clock = this.opts.clock ?? systemClock;
    const store = this.store;
    const observed = (this.observed = new ObservedRegistry());
    const eventLog = (this.eventLog = await EventLog.open({
      file: config.storage.events_file,
      keepDays: config.storage.events_keep_days,
      clock,
      onError: (msg, fields) => log.error(msg, fields),
      onPruned: (deleted, cutoffMs) => log.info('event retention pass', { deleted, before: new Date(cutoffMs).toISOString() }),
    }));
    this.cleanups.push(() => eventLog.close());
    const events = (this.events = daemonEventBus(eventLog, clock, log));
    const runtime = new RuntimeStore(store.meta, (err) => log.warn('runtime record write failed', { error: String(err) }));
    this.cleanups.push(() => runtime.flush());
    const spawnContext = { root: config.root, logDir: config.storage.log_dir, baseEnv: process.env };

    const enqueue = (id: string) => this.reconciler.enqueue(id);
    const controller = (this.controller = new ProcessController({
      store,
      observed,
      events,
      os,
      clock,
      runtime,
      spawnContext,
      enqueue,
      blockedBy: (id) => dependencyBlocker(store, observed, id),
    }));
    const reconciler = (this.reconciler = this.loop('process', clock, controller.reconcile));

    const health = new HealthController({
      store,
      observed,
      events,
      clock,
      probes: realProbes,
      os,
      spawnContext,
      enqueue: (id) => healthLoop.enqueue(id),
      verdictChanged: enqueue,
      restartForHealth: (id, pid) => controller.restartForHealth(id, pid),
    });
    const healthLoop = this.loop('health', clock, health.reconcile);
    watchForDependants(store, observed, { process: enqueue, health: (id) => healthLoop.enqueue(id) });
    // Cron programs (docs/cron.md) run on their own loop with one timer for all schedules; the
    // process controller skips them. Marks (last fire times) are written behind it.
    const marks = new CronMarks(store.meta, (err) => log.warn('cron mark write failed', { error: String(err) }));
    await marks.load();
    const cron = (this.cron = new CronController({ store, observed, events, os, clock, marks, spawnContext, enqueue: (id) => cronLoop.enqueue(id) }));
    const cronLoop = this.loop('cron', clock, cron.reconcile);
    this.cleanups.push(async () => {
      cron.stop();
      await marks.flush();
    });

    // Processes that outlived a previous daemon are adopted, not started twice.
    const adopted = new Set<string>();
    for (const [id, record] of await runtime.loadAll()) {
      if (store.get(id) && controller.adopt(id, record)) adopted.add(id);
      else runtime.set(id, null);
    }
    await this.applyBootIntents(adopted);
    store.onChange((ids) => ids.forEach((id) => (reconciler.enqueue(id), healthLoop.enqueue(id), cronLoop.enqueue(id))));
    for (const r of [...store.list()].sort((a, b) => withDefaults(a.config).priority - withDefaults(b.config).priority)) {
      reconciler.enqueue(r.id);
    }
    for (const r of store.list()) if (r.config.cron !== undefined) cronLoop.enqueue(r.id);
    reconciler.start();
    healthLoop.start();
    cronLoop.start();
    if (adopted.size > 0) log.info('re-adopted running programs', { count: adopted.size });

    const sampler = new UsageSampler({ os, clock, observed, livePids: () => new Map([...controller.livePids(), ...cron.livePids()]), intervalMs: config.supervisor.sample_interval_secs * 1000 });
    sampler.start();
    this.cleanups.push(() => sampler.stop());
    const rotator = new LogRotator({
      clock,
      // svcd.log too: the daemon's own log must not be what fills the log disk.
      files: () => [join(config.storage.log_dir, 'svcd.log'), ...[...controller.livePids().keys(), ...cron.livePids().keys()].flatMap((id) => {
        const r = store.get(id);
        return r ? Object.values(logPaths(id, r.config, config.storage.log_dir)) : [];
      })],
      maxBytes: config.storage.log_max_bytes,
      keep: config.storage.log_keep,
      intervalMs: 10_000,
      onError: (file, err) => log.warn('log rotation failed', { file, error: String(err) }),
      onInPlace: (file, info) => log.warn('log rotated in place (no space for a copy): the newest bytes were kept', { file, ...info }),
    });
    rotator.start();
    this.cleanups.push(() => rotator.stop());

    events.emit({ event: 'system_startup', msg: `svcd ${this.opts.version} started with ${store.list().length} programs (${adopted.size} re-adopted)` });

    const stats = new SystemStatsSampler({ clock, read: readHostStats, onError: (err) => log.warn('system stats sampling failed', { error: String(err) }) });
    stats.start();
    this.cleanups.push(() => stats.stop());
    const metrics = createDaemonMetrics({
      store,
      observed,
      loop: () => ({ depth: reconciler.queue.length, inFlight: reconciler.queue.inFlight, passes: reconciler.passes, passMs: reconciler.passMs }),
      eventWriter: () => eventLog.writerStats(),
    });
    this.cleanups.push(() => metrics.close());

    // Signals to a cron program go to its runs in flight.
    const signaller = { signal: (id: string, sig: SignalName) => (cron.owns(id) ? cron.signal(id, sig) : controller.signal(id, sig)) };
    const actions = new ProgramActions(store, observed, signaller);
    const applier = new StackApplier(store, { logDir: config.storage.log_dir, now: () => clock.now() });
    const stackDir = await startStackDirectory({ dir: config.stacks.dir, watch: config.stacks.watch, clock, applier, log, maxBytes: config.server.max_body_bytes });
    this.cleanups.push(() => stackDir.close());
    const stacks = { applier, status: () => stackDir.directory.status() };
    const deps = { config, store, observed, actions, events: eventLog, log, version: this.opts.version, requestShutdown: () => void this.shutdown(), systemStats: () => stats.current(), metrics, stacks };
    const app = createApp(deps);
    this.logSocket = new LogSocket({ store, authSecret: config.server.auth_secret, paths: (id) => logPaths(id, store.get(id)?.config ?? {}, config.storage.log_dir) });
    await this.listen((req, res) => void app.callback()(req, res));
  }

  /** A controller's reconcile loop: errors are logged (and the key retried), stopped at teardown. */
  private loop(name: string, clock: Clock, reconcile: (id: string) => Promise<Result | void>): Reconciler<string> {
    const log = this.opts.log;
    const loop = new Reconciler(clock, reconcile, {
      onError: (key, err) => log.error(`${name} reconcile failed`, { program_id: key, error: (err as Error).stack ?? String(err) }),
    });
    this.cleanups.push(() => loop.stop());
    return loop;
  }

  /**
   * Boot semantics of autostart: programs start at boot unless autostart is false. For a cron
   * program "running" means its schedule is active (docs/cron.md).
   */
  private async applyBootIntents(adopted: Set<string>): Promise<void> {
    const changes = this.store.list().filter((r) => {
      const want = adopted.has(r.id) ? 'running' : initialRun(r.config);
      return r.intent.run !== want;
    });
    if (changes.length === 0) return;
    await this.store.setIntents(changes.map((r) => r.id), (i) => ({ ...i, run: i.run === 'running' ? 'stopped' : 'running', force: false }));
  }

  private listen(handler: Parameters<typeof createServer>[1]): Promise<void> {
    const { server: cfg } = this.opts.config;
    const server = (this.server = createServer(httpServerOptions(), handler));
    if (this.logSocket) server.on('upgrade', this.logSocket.upgrade);
    applyHttpLimits(server, cfg);
    return new Promise((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const where = cfg.socket_only ? cfg.socket_path : `${cfg.host}:${cfg.port}`;
        reject(new Error(err.code === 'EADDRINUSE' ? `cannot listen on ${where}: address already in use (is another svcd running?)` : `cannot listen on ${where}: ${err.message}`));
      });
      if (cfg.socket_only) {
        mkdirSync(dirname(cfg.socket_path), { recursive: true });
        rmSync(cfg.socket_path, { force: true });
        server.listen(cfg.socket_path, () => resolve());
      } else {
        server.listen(cfg.port, cfg.host, () => resolve());
      }
    });
  }

  address(): string {
    const a = this.server?.address();
    if (!a) return 'not listening';
    return typeof a === 'string' ? a : `${a.address}:${a.port}`;
  }

  /** Graceful stop: every program in reverse priority, system_shutdown recorded and flushed, stores closed. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      const { log } = this.opts;
      log.info('shutting down: stopping all programs');
      const both = { markShutdown: (ids: string[]) => (this.controller.markShutdown(ids), this.cron.markShutdown(ids)) };
      await stopAllForShutdown(this.store.list(), both, this.observed);
      this.events.emit({ event: 'system_shutdown', msg: `svcd ${this.opts.version} stopped` });
      await this.eventLog.flush(); // system_shutdown is on disk before exit; close() follows in teardown
      await this.teardown();
      log.info('svcd stopped');
      this.opts.onExit?.(0);
    })();
    return this.stopping;
  }

  private async teardown(): Promise<void> {
    this.logSocket?.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    for (const cleanup of this.cleanups.reverse()) await cleanup();
    await this.store.close();
  }
}

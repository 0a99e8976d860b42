import { createServer, type Server } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SvcConfig } from '../conf/keys.js';
import { keyLocation } from '../conf/load-config.js';
import type { Logger } from '../conf/logger.js';
import { createApp } from '../api/app.js';
import { applyHttpLimits, httpServerOptions } from '../api/http-limits.js';
import { checkConnectionsWhileOpen } from '../api/http-idle-checks.js';
import { createDaemonMetrics } from '../api/metrics/daemon-metrics.js';
import { stackMetrics } from '../api/metrics/stack-metrics.js';
import { reactionMetrics } from '../api/metrics/reaction-metrics.js';
import { LogSocket } from '../api/ws/log-socket.js';
import { attachWebSocket, type WebSocketApp } from '../api/ws/attach.js';
import type { PluginRuntime } from '../plugins/boot/runtime.js';
import { createOs } from '../controllers/os/select-os.js';
import { CronController } from '../controllers/cron/controller.js';
import { stopLevels } from '../state/stop-order.js';
import { HealthController } from '../controllers/health/controller.js';
import { createProbes } from '../controllers/health/probes.js';
import { bindProgramFeeds } from '../controllers/manager-feeds.js';
import { withSpawnDecorators, type SpawnDecorator } from '../controllers/os/decorated.js';
import { openFilesLimit } from '../controllers/os/open-files-limit.js';
import type { OsPort } from '../controllers/os/port.js';
import { readCaFile } from '../controllers/ota/ca-file.js';
import { OtaController } from '../controllers/ota/controller.js';
import { realOtaPorts } from '../controllers/ota/real-ports.js';
import type { OtaRecord } from '../controllers/ota/record.js';
import { createIsolation } from '../controllers/isolation/create.js';
import { ProcessController } from '../controllers/process/controller.js';
import { baseEnvOf } from '../controllers/process/spawn-spec.js';
import { startReactions } from '../controllers/reactions/start.js';
import { DepartingPrograms } from '../state/departing.js';
import { allLivePids, signalOwner, type DesiredChange } from '../controllers/program-controller.js';
import { logPaths } from '../log-files/paths.js';
import { LogRotator } from '../log-files/rotation.js';
import { readHostStats } from '../observers/host-stats.js';
import { SystemStatsSampler } from '../observers/system-stats.js';
import { UsageSampler } from '../observers/usage-sampler.js';
import { ProgramActions } from '../operations/actions.js';
import { systemClock, type Clock } from '../reconciler/clock.js';
import { ControllerManager } from '../reconciler/manager.js';
import { StackApplier } from '../stacks/apply.js';
import type { FileRecord } from '../stacks/directory.js';
import { startStackDirectory } from '../stacks/watch.js';
import { startGitSources } from '../stacks/git/start.js';
import type { BootContext } from '../state/boot.js';
import { ControllerStatusStore } from '../state/controller-status.js';
import { CronMarks } from '../state/cron-marks.js';
import { EventBus } from '../state/events/bus.js';
import { EventLog } from '../state/events/event-log.js';
import { notifyMetrics } from '../plugins/notify/metrics.js';
import { openNotify } from '../plugins/notify/open-notify.js';
import type { NotifyService } from '../plugins/notify/service.js';
import { ObservedRegistry, type ObservedChange } from '../state/observed.js';
import { withDefaults } from '../state/program.js';
import { RuntimeStore } from '../state/runtime-store.js';
import { machineBootId, SupervisionStore } from '../state/supervision-store.js';
import { HealthVerdicts } from '../state/health-verdicts.js';
import { LiveMarker } from '../state/live-marker.js';
import { ALIVE } from '../state/status.js';
import { ProgramStore } from '../state/store.js';
import type { ProgramRecord } from '../state/program.js';
import { AuditRecorder } from '../plugins/security/audit/recorder.js';

/** Beyond the stop windows of every stop level, how long shutdown waits before giving up. */
const SHUTDOWN_GRACE_MS = 5000;

export interface DaemonOptions {
  config: SvcConfig;
  log: Logger;
  version: string;
  os?: OsPort;
  /** Changes every spawn before it happens (the isolation plugin's cgroup placement). */
  spawnDecorators?: SpawnDecorator[];
  clock?: Clock;
  /** Called once the daemon has stopped after a shutdown request. */
  onExit?: (code: number) => void;
  /** License and plugins as start-up decided (plugins/boot); absent: core auth only. */
  plugins?: PluginRuntime;
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
 * matters: adopt surviving processes first, run the loops only once everything else (the
 * listener included) has started, so a start that fails has started no program.
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
    const store = await ProgramStore.open(config.storage.data_dir, { logDir: config.storage.log_dir, log, clock: opts.clock ?? systemClock });
    try {
      await checkAddressFree(config.server);
    } catch (err) {
      await store.close();
      throw err;
    }
    const daemon = new Daemon(opts, store);
    try {
      await daemon.boot();
    } catch (err) {
      await daemon.liveMarker?.abandon();
      await daemon.teardown();
      throw err;
    }
    log.info('svcd ready', { version: opts.version, root: config.root, listen: daemon.address(), programs: store.list().length });
    return daemon;
  }

  private manager!: ControllerManager<string, DesiredChange, ObservedChange>;
  private observed!: ObservedRegistry;
  private events!: EventBus;
  private eventLog!: EventLog;
  private logSocket: LogSocket | null = null;
  private notify: NotifyService | null = null;
  private liveMarker: LiveMarker | null = null;

  private async boot(): Promise<void> {
    const { config, log } = this.opts;
    // The spawner (native/spawner) when built and enabled, else child_process (docs/operations.md).
    const port = this.opts.os ?? (await createOs({ spawner: config.supervisor.spawner, env: process.env, root: config.root, logDir: config.storage.log_dir, warn: (msg) => log.warn(msg) }));
    this.cleanups.push(() => port.close()); // runs last: after every loop has stopped
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
    // The notify plugin listens from the first event on (docs/notify.md); it closes before the history.
    const notifyLib = this.opts.plugins?.libraries.find((l) => l.name === 'notify');
    const notify = notifyLib ? await openNotify(notifyLib, { root: config.root, bus: events, clock, log }) : null;
    if (notify) this.cleanups.push(() => notify.close());
    this.notify = notify?.service ?? null;
    const warnOf = (what: string) => (err: unknown) => log.warn(what, { error: String(err) });
    // A crash of the previous svcd on this machine boot is not a boot for the programs (state/live-marker.ts).
    const bootId = machineBootId();
    this.liveMarker = new LiveMarker(store.meta, bootId, warnOf('live marker write failed'));
    const crashed = await this.liveMarker.arm(process.pid, clock.now());
    if (crashed) log.info('the previous svcd did not shut down gracefully: every stored start and stop holds');
    const boot: BootContext = { epoch: store.epoch, adopted: new Set(), crashed };
    const spawnContext = { root: config.root, logDir: config.storage.log_dir, baseEnv: baseEnvOf(process.env) };

    // Controllers: one registration each; they coordinate only through the store and the
    // observed state (docs/architecture.md). Registration order is start-up order.
    const manager = (this.manager = new ControllerManager({ clock, onError: (name, key, err) => log.error(`${name} reconcile failed`, { program_id: key, error: (err as Error).stack ?? String(err) }) }));
    const wake = (name: string) => (id: string) => manager.enqueue(name, id);
    const isolation = createIsolation({ config, plugins: this.opts.plugins, store, observed, events, clock, wake: wake('isolation'), log });
    const os = withSpawnDecorators(port, [...openFilesLimit(config.supervisor.limit_nofile), ...(this.opts.spawnDecorators ?? []), isolation.hooks]);
    const runtime = new RuntimeStore(store.meta, warnOf('runtime record write failed'));
    const supervision = new SupervisionStore(store.meta, bootId, warnOf('supervision record write failed'));
    const departing = new DepartingPrograms();
    const processes = new ProcessController({ store, observed, events, os, clock, runtime, supervision, spawnContext, boot, wake: wake('process'), log, departing });
    const cron = new CronController({ store, observed, events, os, clock, boot, spawnContext, wake: wake('cron'), marks: new CronMarks(store.meta, warnOf('cron mark write failed')) });
    manager.register(processes);
    manager.register(new HealthController({ store, observed, events, clock, os, spawnContext, probes: createProbes(os), wake: wake('health'), verdicts: new HealthVerdicts(store.meta, warnOf('health verdict write failed')) }));
    manager.register(cron);
    manager.register(isolation);
    manager.register(
      new OtaController({
        store,
        observed,
        events,
        clock,
        status: new ControllerStatusStore<OtaRecord>(store.meta, 'ota'),
        ports: realOtaPorts({ clock, os, ca: caBundle(config) }),
        limits: { maxDownloadBytes: config.ota.max_download_bytes, maxExtractBytes: config.ota.max_extract_bytes, maxAttempts: config.ota.max_attempts },
        wake: wake('ota'),
        warn: (msg, fields) => log.warn(msg, fields),
      }),
    );
    const runners = [cron, processes];
    this.cleanups.push(bindProgramFeeds(manager, store, observed));
    // Re-adopts surviving processes; the loops run only once the rest of start-up has worked
    // (end of boot), so a start that fails below has started nothing.
    await manager.prepare();
    this.cleanups.push(() => manager.stop());
    if (boot.adopted.size > 0) log.info('re-adopted running programs', { count: boot.adopted.size });

    // Event reactions (docs/reactions.md): subscribed before system_startup, so it can trigger one.
    const reactions = await startReactions({ root: config.root, logDir: config.storage.log_dir, os, clock, events, log });
    this.cleanups.push(() => reactions.close());

    const sampler = new UsageSampler({ os, clock, observed, livePids: () => allLivePids(runners), wholeProgram: (id) => isolation.usage(id), intervalMs: config.supervisor.sample_interval_secs * 1000, onError: warnOf('usage sampling failed') });
    sampler.start();
    this.cleanups.push(() => sampler.stop());
    const logDirsOf = (records: ProgramRecord[]) => records.flatMap((r) => Object.values(logPaths(r.id, r.config, config.storage.log_dir)).map((f) => dirname(f)));
    const rotator = new LogRotator({
      clock,
      // svcd.log and spawner.log too (both opened O_APPEND): the daemon's own logs must not be
      // what fills the log disk.
      files: () => [
        join(config.storage.log_dir, 'svcd.log'),
        join(config.storage.log_dir, 'spawner.log'),
        ...[...allLivePids(runners).keys()].flatMap((id) => {
          const r = store.get(id);
          return r ? Object.values(logPaths(id, r.config, config.storage.log_dir)) : [];
        }),
        ...reactions.reactor.logFiles(),
      ],
      dirs: () => [config.storage.log_dir, ...logDirsOf(store.list()), ...reactions.reactor.logFiles().map((f) => dirname(f))],
      maxBytes: config.storage.log_max_bytes,
      keep: config.storage.log_keep,
      intervalMs: 10_000,
      onError: (file, err) => log.warn('log rotation failed', { file, error: String(err) }),
      onInPlace: (file, info) => log.warn('log rotated in place (no space for a copy): the newest bytes were kept', { file, ...info }),
    });
    rotator.start();
    // Only the changed programs' directories: a pass over every program per write is O(N²) in a bulk create.
    this.cleanups.push(store.onChange((_ids, configs) => rotator.sync(logDirsOf([...configs.keys()].flatMap((id) => store.get(id) ?? [])))), () => rotator.stop());

    events.emit({ event: 'system_startup', msg: `svcd ${this.opts.version} started with ${store.list().length} programs (${boot.adopted.size} re-adopted)` });

    const stats = new SystemStatsSampler({ clock, read: readHostStats, onError: warnOf('system stats sampling failed') });
    stats.start();
    this.cleanups.push(() => stats.stop());
    const metrics = createDaemonMetrics({ store, observed, clock, loops: () => manager.stats(), cgroupEnforced: () => isolation.enforcedCount(), eventWriter: () => eventLog.writerStats() });
    metrics.metrics.add(reactionMetrics(() => ({ stats: reactions.reactor.stats(), loadFailed: reactions.reactor.loadFailed() })));
    this.cleanups.push(() => metrics.close());
    if (this.notify) metrics.metrics.add(notifyMetrics(this.notify));

    const actions = new ProgramActions(store, observed, signalOwner(runners));
    const applier = new StackApplier(store, { logDir: config.storage.log_dir, now: () => clock.now(), boot });
    const records = new ControllerStatusStore<FileRecord>(store.meta, 'stacks');
    const stackDir = await startStackDirectory({ dir: config.stacks.dir, watch: config.stacks.watch, clock, applier, log, records, maxBytes: config.server.max_body_bytes, events });
    this.cleanups.push(() => stackDir.close());
    const stacks = { applier, status: () => stackDir.directory.status() };
    const gitops = await startGitSources({ config, clock, applier, events, log, meta: store.meta });
    metrics.metrics.add(stackMetrics({ files: stacks.status, git: () => gitops.sync.status(), now: () => clock.now() }));
    this.cleanups.push(() => gitops.stop());
    this.logSocket = new LogSocket({ store, observed, paths: (id) => logPaths(id, store.get(id)?.config ?? {}, config.storage.log_dir) });
    const security = this.opts.plugins?.security;
    const auditRecorder = security ? new AuditRecorder(security.audit, () => clock.now(), (err) => log.error('audit record write failed', { error: String(err) })) : undefined;
    if (auditRecorder) this.cleanups.push(() => auditRecorder.close());
    const deps = { config, clock, store, observed, departing, boot, actions, events: eventLog, log, version: this.opts.version, auditRecorder, requestShutdown: (cause: string) => void this.shutdown(cause), systemStats: () => stats.current(), freshSystemStats: () => stats.fresh(), metrics, stacks, gitops: gitops.sync, plugins: this.opts.plugins, logSocket: this.logSocket, notify: this.notify ?? undefined, reactions: reactions.reactor };
    const app = createApp(deps);
    await this.listen(app);
    manager.run();
  }

  private listen(app: WebSocketApp): Promise<void> {
    const { server: cfg } = this.opts.config;
    const handle = app.callback();
    const server = (this.server = createServer(httpServerOptions(), (req, res) => void handle(req, res)));
    attachWebSocket(app, server, (err) => this.opts.log.error('cannot load the WebSocket server', { error: String(err) }));
    applyHttpLimits(server, cfg);
    checkConnectionsWhileOpen(server, httpServerOptions().connectionsCheckingInterval ?? 1000);
    return new Promise((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(cfg.socket_only ? cfg.socket_path : `${cfg.host}:${cfg.port}`, err)));
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

  /**
   * Graceful stop: every program in reverse priority, system_shutdown recorded and flushed, stores
   * closed. `cause` says what asked for it (a signal, or the API request and who made it), in
   * svcd.log and in the event's msg: an operator finding svcd stopped can tell which.
   */
  shutdown(cause: string): Promise<void> {
    this.stopping ??= (async () => {
      const { log } = this.opts;
      log.info(`shutting down (${cause}): stopping all programs`);
      // A condition every planner reads: stop everything in stop order, keep stored intent.
      this.observed.beginShutdown();
      this.notify?.shutdownBegun();
      const levels = stopLevels(this.store.list());
      const boundMs = levels.reduce((sum, level) => sum + Math.max(...level.map((r) => withDefaults(r.config).stopsecs)) * 1000 + SHUTDOWN_GRACE_MS, 0);
      const stopped = await this.observed.waitForAll((o) => !ALIVE.has(o.status), boundMs);
      if (!stopped) log.warn('shutdown: some programs were still alive at the deadline', { bound_ms: boundMs });
      this.events.emit({ event: 'system_shutdown', msg: `svcd ${this.opts.version} stopped (${cause})` });
      await this.eventLog.flush(); // system_shutdown is on disk before exit; close() follows in teardown
      await this.liveMarker?.disarm(); // graceful: the next start is a boot
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

function listenError(where: string, err: NodeJS.ErrnoException): Error {
  return new Error(err.code === 'EADDRINUSE' ? `cannot listen on ${where}: address already in use (is another svcd running?)` : `cannot listen on ${where}: ${err.message}`);
}

/**
 * Binds the API's TCP address for a moment before anything starts: a start refused at the final
 * listen had already started the programs and applied the stack files, and left the programs
 * running unsupervised. Port 0 (any free port) needs no check.
 */
function checkAddressFree(cfg: SvcConfig['server']): Promise<void> {
  if (cfg.socket_only) return checkSocketUnserved(cfg.socket_path);
  if (cfg.port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(listenError(`${cfg.host}:${cfg.port}`, err)));
    probe.listen(cfg.port, cfg.host, () => probe.close(() => resolve()));
  });
}

/**
 * The socket at `socket_path` (conf/directories.ts made sure nothing else is there) is removed
 * at listen: only when no one answers on it. An svcd of another root on the same path lost its
 * socket to the newcomer and could no longer be reached.
 */
function checkSocketUnserved(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      reject(listenError(path, Object.assign(new Error('in use'), { code: 'EADDRINUSE' })));
    });
    probe.once('error', (err: NodeJS.ErrnoException) => {
      // Nothing there, or a socket no one listens on any more (left by an svcd that was killed).
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve();
      else reject(listenError(path, err));
    });
  });
}

/** `[ota] ca_file`, read at start-up; a problem names the file and line of the key. */
function caBundle(config: SvcConfig): string | null {
  try {
    return readCaFile(config.ota.ca_file);
  } catch (err) {
    throw new Error(`${keyLocation(config, 'ota', 'ca_file')}: ${(err as Error).message}`);
  }
}

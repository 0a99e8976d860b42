import type { Clock } from '../../reconciler/clock.js';
import type { Result } from '../../reconciler/reconciler.js';
import { runIntent, type BootContext } from '../../state/boot.js';
import type { CronMarks } from '../../state/cron-marks.js';
import type { EventSink } from '../../state/events/types.js';
import type { CronLastRun, LastExit, ObservedChange, ObservedRegistry } from '../../state/observed.js';
import { withDefaults, type EffectiveConfig } from '../../state/program.js';
import type { SignalName } from '../../state/signals.js';
import type { ProgramStatus } from '../../state/status.js';
import type { ProgramStore } from '../../state/store.js';
import type { ExitInfo, OsPort } from '../os/port.js';
import { featureKeys, type DesiredChange, type ProcessRunner, type ProgramController } from '../program-controller.js';
import { buildSpawnSpec, type SpawnContext } from '../process/spawn-spec.js';
import { initialCronState, type CronRun, type CronState, type Firing } from './cron-state.js';
import { iso, nextFireAt, noSlotDetail, planCron, wakeAtOf, type CronEffect } from './plan.js';
import { ScheduleCache } from './schedule.js';
import { logPaths } from '../../log-files/paths.js';
import { parseSpawnTag, spawnTag } from '../os/spawn-tag.js';
import { DependantsIndex, dependencyBlocker } from '../gates/dependency-gate.js';

export interface CronControllerDeps {
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  os: OsPort;
  clock: Clock;
  /** Durable last-fire marks (store.meta); null keeps them in memory only. */
  marks: CronMarks | null;
  spawnContext: SpawnContext;
  boot: BootContext;
  /** Queues one of this controller's keys (a run's exit was observed). */
  wake: (id: string) => void;
  /** In [0, 1): jitter source (injected in tests). */
  random?: () => number;
}

/**
 * A program that gained `cron` while it ran as a service: its process is stopped by the process
 * controller (which publishes its pid meanwhile), and no run starts beside it.
 */
function formerProcessBlocker(pid: number | undefined): string | null {
  return pid === undefined ? null : `waiting for its former service process (pid ${pid}) to stop`;
}

/**
 * Runs programs that have `cron`: fires their schedule by the overlap, catch-up and jitter
 * policies and ends runs at kill_after_secs. Decisions are in plan.ts; this file observes exits,
 * applies effects and publishes the observed state. Its next wake-up (slot, jitter, deadline)
 * is the loop's requeue: every delayed key of a loop shares one clock timer through a min-heap
 * (reconciler/work-queue.ts), so 1,000 schedules still cost one timer. The process controller
 * leaves these programs alone.
 */
export class CronController implements ProgramController, ProcessRunner {
  readonly name = 'cron';
  private readonly states = new Map<string, CronState>();
  private readonly exits = new Map<string, { pid: number; exit: ExitInfo }[]>();
  private readonly schedules = new ScheduleCache();
  /** The last stored name of each cron program: the exits of its runs after removal still name it. */
  private readonly names = new Map<string, string>();
  /** The log paths created ahead of each program's first slot (prepareLogFiles). */
  private readonly logFilesReady = new Map<string, string>();

  /** Programs by the names in their depends_on: a dependency's status change may let a firing start. */
  private readonly dependants: DependantsIndex;

  constructor(private readonly deps: CronControllerDeps) {
    this.dependants = new DependantsIndex(deps.store);
  }

  /** Programs with a schedule before or after the write, and the runs this controller still has. */
  readonly watches = {
    desired: (change: DesiredChange): string[] => featureKeys(change, { store: this.deps.store, uses: (c) => c.cron !== undefined, known: (id) => this.states.has(id), intents: true }),
    // A dependency came up (or went down): scheduled dependants start their waiting firings (or show what they wait for).
    observed: ({ id, prev, next }: ObservedChange): string[] => {
      const config = this.deps.store.get(id)?.config;
      // The service process of a program that gained `cron` is gone: its waiting firings may start.
      const own = prev?.former_pid !== undefined && next?.former_pid === undefined && config?.cron !== undefined ? [id] : [];
      if ((prev?.status ?? null) === (next?.status ?? null) || !config) return own;
      return [...own, ...this.dependants.of(config.name).filter((d) => this.deps.store.get(d)?.config.cron !== undefined)];
    },
  };

  /** Programs with a schedule (the others are never this controller's). */
  initialKeys(): string[] {
    return this.deps.store.list().filter((r) => r.config.cron !== undefined).map((r) => r.id);
  }

  /**
   * Loads the durable marks, and re-adopts runs that outlived the previous daemon: those still
   * running, and (with the spawner) those that ended while no daemon watched, whose kept exit
   * then records their cron_exit.
   */
  async prepare(): Promise<void> {
    await this.deps.marks?.load();
    const { os, store, clock } = this.deps;
    const found = os.findProgramProcesses(this.deps.spawnContext.root);
    const known = (pid: number, startTime: number) => found.some((f) => f.pid === pid && f.startTime === startTime);
    const recovered = await os.recover();
    for (const r of [...recovered.live, ...recovered.exited]) {
      const { programId, cronSlot } = parseSpawnTag(r.tag);
      if (cronSlot !== undefined && !known(r.pid, r.startTime)) found.push({ pid: r.pid, startTime: r.startTime, programId, role: 'cron', cronSlot, startedAtMs: r.startedAt });
    }
    for (const p of found) {
      const record = store.get(p.programId);
      if (p.role !== 'cron' || !record?.config.cron) continue;
      const config = withDefaults(record.config);
      const slot = Date.parse(p.cronSlot ?? '') || clock.now();
      const state = this.states.get(p.programId) ?? initialCronState(record.intent, this.deps.marks?.get(p.programId));
      // Its real start (from /proc or the spawner) keeps duration_secs and the kill_after_secs cap true to the run.
      const startedAt = Math.min(p.startedAtMs ?? clock.now(), clock.now());
      const killAt = config.kill_after_secs ? startedAt + config.kill_after_secs * 1000 : null;
      const run: CronRun = { pid: p.pid, startedAt, slot, trigger: 'schedule', killAt, stopsecs: config.stopsecs, stopping: null, adopted: true };
      // Its slot was handled, even when the mark saying so did not reach the disk before the crash
      // (written in the background; parked while the disk is full): it does not fire a second time.
      // A manual run's slot is its request time, not a slot of the schedule, and moves nothing.
      const schedule = this.schedules.get(config.cron!, config.cron_tz, config.name);
      const handled = state.lastFire !== null && slot > state.lastFire && schedule?.next(slot - 1) === slot;
      // A queued firing that started just before the crash, before the mark without it was written, is this run.
      const queue = state.queue.filter((f) => f.slot !== slot);
      this.states.set(p.programId, { ...state, lastFire: handled ? slot : state.lastFire, runs: [...state.runs, run], queue });
      os.watchAdopted({ pid: p.pid, startTime: p.startTime }, (exit) => this.observeExit(p.programId, p.pid, exit));
    }
  }

  async close(): Promise<void> {
    await this.deps.marks?.flush();
  }

  reconcile = async (id: string): Promise<Result | void> => {
    const { store, clock, marks, observed, boot } = this.deps;
    const record = store.get(id);
    const owned = record?.config.cron !== undefined;
    const current = this.states.get(id);
    if (!owned && !current) return;
    const config = owned ? withDefaults(record.config) : undefined;
    if (record) this.names.set(id, record.config.name);
    if (config) this.prepareLogFiles(id, config);
    const exits = this.exits.get(id) ?? [];
    this.exits.delete(id);
    const blockedBy = owned ? (formerProcessBlocker(observed.get(id).former_pid) ?? dependencyBlocker(store, observed, id)) : null;
    const plan = planCron({
      id,
      config,
      intent: owned ? { ...record.intent, run: runIntent(record, boot) } : undefined,
      schedule: config ? this.schedules.get(config.cron!, config.cron_tz, config.name) : null,
      // Daemon shutdown is a condition of the observed state: pause, keep stored intent and marks.
      state: { ...(current ?? initialCronState(record?.intent, marks?.get(id))), shutdown: observed.shuttingDown },
      exits,
      now: clock.now(),
      random: (this.deps.random ?? Math.random)(),
      blockedBy,
      unscheduled: record !== undefined && !owned,
    });
    this.states.set(id, plan.next);
    let spawnFailed = false;
    for (const effect of plan.effects) spawnFailed = (await this.apply(id, config, effect)) || spawnFailed;
    const state = this.states.get(id);
    if (!state) return;
    if (owned) this.publish(id, state, blockedBy);
    // A failed spawn frees its slot at once: let queued firings have it.
    if (spawnFailed && state.queue.length > 0) return { requeueAfterMs: 0 };
    const wakeAt = wakeAtOf(state);
    if (wakeAt !== null) return { requeueAfterMs: Math.max(0, wakeAt - clock.now()) };
  };

  /** Returns true when a spawn failed. */
  private async apply(id: string, config: EffectiveConfig | undefined, effect: CronEffect): Promise<boolean> {
    const { os, events, marks, observed, store } = this.deps;
    switch (effect.kind) {
      case 'event':
        // The plan names a program by its config, which a removed program no longer has.
        events.emit(effect.event.program_name == null ? { ...effect.event, program_name: this.names.get(id) ?? null } : effect.event);
        return false;
      case 'signal':
        os.signal(effect.pid, effect.signal, true);
        return false;
      case 'mark':
        marks?.set(id, effect.mark);
        return false;
      case 'forget':
        this.states.delete(id);
        this.names.delete(id);
        this.exits.delete(id);
        this.logFilesReady.delete(id);
        // A program that lost its `cron` belongs to the process controller now: keep its entry.
        if (store.get(id)) observed.update(id, { cron: undefined });
        else observed.delete(id);
        return false;
      case 'spawn':
        return config ? this.spawn(id, config, effect.firing) : false;
      default: {
        const never: never = effect;
        throw new TypeError(`unknown effect ${JSON.stringify(never)}`);
      }
    }
  }

  private async spawn(id: string, config: EffectiveConfig, firing: Firing): Promise<boolean> {
    const { os, clock, events } = this.deps;
    const what = `slot ${iso(firing.slot)}${firing.trigger === 'schedule' ? '' : `, ${firing.trigger}`}`;
    try {
      const spec = buildSpawnSpec(id, config, this.deps.spawnContext, os);
      spec.env.SVC_CRON_SLOT = iso(firing.slot);
      spec.tag = spawnTag(id, spec.env.SVC_CRON_SLOT);
      const handle = await os.spawn(spec, (exit) => this.observeExit(id, handle.pid, exit));
      const startedAt = clock.now();
      const run: CronRun = {
        pid: handle.pid,
        startedAt,
        slot: firing.slot,
        trigger: firing.trigger,
        killAt: config.kill_after_secs ? startedAt + config.kill_after_secs * 1000 : null,
        stopsecs: config.stopsecs,
        stopping: null,
      };
      const state = this.states.get(id)!;
      this.states.set(id, { ...state, runs: [...state.runs, run] });
      events.emit({ event: 'cron_started', program_id: id, program_name: config.name, msg: `run started pid ${handle.pid} for ${what}` });
      return false;
    } catch (err) {
      const msg = `spawn failed for ${what}: ${(err as Error).message}`;
      const lastRun: CronLastRun = { slot: firing.slot, started_at: null, exit_code: null, signal: null, duration_secs: 0, reason: 'spawn_failed', msg };
      const state = this.states.get(id)!;
      this.states.set(id, { ...state, lastRun });
      events.emit({ event: 'cron_spawn_failed', program_id: id, program_name: config.name, msg });
      return true;
    }
  }

  /**
   * Creates a program's log files when it is registered (or its log paths change), so that its
   * first slot opens them instead: 1,000 jobs due in one second would otherwise allocate 2,000
   * inodes while the slot is served, most of the spawner's time in the bench's S8 on ext4
   * (bench/FINDINGS.md). A failure is left to the spawn, which opens (or creates) the files at
   * every run and reports what is wrong, as before.
   */
  private prepareLogFiles(id: string, config: EffectiveConfig): void {
    const { stdout, stderr } = logPaths(id, config, this.deps.spawnContext.logDir);
    const key = `${stdout}\0${stderr}`;
    if (this.logFilesReady.get(id) === key) return;
    this.logFilesReady.set(id, key);
    this.deps.os.createLogFiles([stdout, stderr]).catch(() => {
      if (this.logFilesReady.get(id) === key) this.logFilesReady.delete(id);
    });
  }

  /** Records an exit reported by the OS (an observation, not a decision) and wakes the key. */
  private observeExit(id: string, pid: number, exit: ExitInfo): void {
    this.exits.set(id, [...(this.exits.get(id) ?? []), { pid, exit }]);
    this.deps.wake(id);
  }

  /** Whether this controller runs the program (it has `cron`, or runs of it are still ending). */
  owns(id: string): boolean {
    return this.states.has(id) || this.deps.store.get(id)?.config.cron !== undefined;
  }

  /** Sends a user signal to every run in flight; false when none is. */
  signal(id: string, signal: SignalName): boolean {
    const runs = this.states.get(id)?.runs ?? [];
    for (const run of runs) this.deps.os.signal(run.pid, signal, true);
    return runs.length > 0;
  }

  /** The newest run's pid per program, for the usage sampler and log rotation. */
  livePids(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, state] of this.states) if (state.runs.length > 0) out.set(id, state.runs[state.runs.length - 1].pid);
    return out;
  }

  stateOf(id: string): CronState | undefined {
    return this.states.get(id);
  }

  private publish(id: string, s: CronState, blockedBy: string | null): void {
    const newest = s.runs[s.runs.length - 1];
    const status: ProgramStatus = s.runs.length > 0 ? (s.active ? 'Running' : 'Stopping') : s.active ? 'Scheduled' : 'Stopped';
    this.deps.observed.update(id, {
      status,
      pid: newest?.pid ?? null,
      started_at: newest?.startedAt ?? null,
      next_retry_at: null,
      last_exit: s.lastRun ? toLastExit(s.lastRun) : null,
      // Firings wait while depends_on is not up: say for what (docs/cron.md).
      detail: s.active ? (blockedBy ?? noSlotDetail(s)) : null,
      applied_start_seq: s.appliedStart,
      applied_restart_seq: s.appliedRestart,
      cron: { next_fire_at: nextFireAt(s), running: s.runs.length, queued: s.queue.length, skipped: s.skipped, dropped: s.dropped, last_run: s.lastRun },
      ...(newest ? {} : { cpu_usage: 0, mem_usage: 0 }),
    });
  }
}

function toLastExit(run: CronLastRun): LastExit {
  const durationMs = Math.round(run.duration_secs * 1000);
  return { exit_code: run.exit_code, signal: run.signal, at: (run.started_at ?? run.slot) + durationMs, duration_ms: durationMs, reason: run.reason, msg: run.msg };
}

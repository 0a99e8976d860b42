import type { Clock } from '../../reconciler/clock.js';
import type { Result } from '../../reconciler/reconciler.js';
import { runIntent, type BootContext } from '../../state/boot.js';
import type { EventInput, EventSink } from '../../state/events/types.js';
import type { ObservedChange, ObservedProgram, ObservedRegistry, RestartRequest } from '../../state/observed.js';
import { withDefaults, type ProgramRecord } from '../../state/program.js';
import type { RuntimeRecord, RuntimeStore, StopInProgress } from '../../state/runtime-store.js';
import type { SupervisionRecord, SupervisionStore } from '../../state/supervision-store.js';
import type { SignalName } from '../../state/signals.js';
import { ALIVE } from '../../state/status.js';
import type { ProgramStore } from '../../state/store.js';
import type { DepartingPrograms } from '../../state/departing.js';
import { artifactBlocker } from '../gates/artifact-gate.js';
import { DependantsIndex, dependencyBlocker } from '../gates/dependency-gate.js';
import { DepartureGate } from '../gates/departure-gate.js';
import { StopGate } from '../gates/stop-gate.js';
import type { ExitInfo, OsPort, ProgramProcess } from '../os/port.js';
import { changedIds, type ProcessRunner, type ProgramController } from '../program-controller.js';
import { planAdoption, type Adoption, type Candidate } from './adopt.js';
import { PACE_HORIZON_MS } from './backoff.js';
import { parseSpawnTag } from '../os/spawn-tag.js';
import { runHook } from './hooks.js';
import { planProcess, type Effect, type PlanInput } from './plan.js';
import { initialProcState, type HookRun, type LiveProcess, type ProcState } from './proc-state.js';
import { buildSpawnSpec, type SpawnContext } from './spawn-spec.js';
import { reloadInputs, reloadView, spawnSuccessor } from './reload-apply.js';

export interface ProcessControllerDeps {
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  os: OsPort;
  clock: Clock;
  runtime: RuntimeStore | null;
  /** Backoff, Fatal and Exited kept across a crash of svcd (state/supervision-store.ts); null: in memory only. */
  supervision?: SupervisionStore | null;
  spawnContext: SpawnContext;
  boot: BootContext;
  /** Queues one of this controller's keys (an exit or a hook outcome was observed). */
  wake: (id: string) => void;
  /** Where removed programs whose process is still stopping are shown (the API, the watch feed). */
  departing?: DepartingPrograms;
  random?: () => number;
  log?: { warn(msg: string, fields?: Record<string, unknown>): void };
}

/**
 * A program whose `cron` was removed starts once the runs of its former schedule have ended (the
 * cron controller stops them, and withdraws its `cron` condition when the last one is gone): the
 * program's process and a run of its old schedule never overlap.
 */
function formerRunsBlocker(o: ObservedProgram): string | null {
  const running = o.cron?.running ?? 0;
  return running > 0 ? `waiting for ${running === 1 ? 'the run' : `${running} runs`} of its former cron schedule to end` : null;
}

/** Programs with `cron` belong to the cron controller; this one runs every other program. */
const runsHere = (record: ProgramRecord | undefined): record is ProgramRecord => record !== undefined && record.config.cron === undefined;

/**
 * Keeps each program's process as its intent says: starts, stops, restarts by policy. The
 * decisions are in plan.ts; this file observes (exits and hook outcomes from the OS port),
 * applies effects and publishes the observed state. It reads other controllers only through
 * their conditions in the observed state (health verdict, restart requests) and the gates.
 */
export class ProcessController implements ProgramController, ProcessRunner {
  readonly name = 'process';
  private readonly states = new Map<string, ProcState>();
  private readonly dependants: DependantsIndex;
  private readonly stopGate: StopGate;
  /** Programs held back by the stop gate: a program that stops may release them. */
  private readonly waitingToStop = new Set<string>();
  /** The last stored record of each program this controller acts on: its events after removal still name it (spec: program_name is null only for system-wide events), and a removed one stays visible while it stops. */
  private readonly records = new Map<string, ProgramRecord>();
  private readonly departures: DepartureGate;
  /** The supervision record last written for each program (JSON), so that unchanged ones are not written again. */
  private readonly kept = new Map<string, string>();
  /** The latest quick restart scheduled (backoff.ts: quick restarts are paced daemon-wide). */
  private lastQuickRestartAt = -Infinity;
  /** How a reload the previous daemon left half-done ended (prepare), said at the program's first pass, after system_startup. */
  private readonly afterAdoption = new Map<string, Omit<EventInput, 'program_id' | 'program_name'>>();

  constructor(private readonly deps: ProcessControllerDeps) {
    this.dependants = new DependantsIndex(deps.store);
    // A cron program going down (paused) ranks too: a dependency waits for its runs to end.
    this.stopGate = new StopGate(deps.store, deps.observed, (r) => runIntent(r, deps.boot) === 'stopped');
    this.departures = new DepartureGate(deps.wake);
  }

  readonly watches = {
    desired: (change: Parameters<typeof changedIds>[0]): readonly string[] => {
      // Seen as the write is committed, before any of its keys is reconciled.
      const removed = new Map<string, string>();
      const created: string[] = [];
      for (const id of change.ids) {
        const record = this.deps.store.get(id);
        const proc = this.states.get(id)?.proc;
        if (!record && proc) {
          removed.set(id, this.nameOf(id) ?? id);
          // Visible (removed: true) until its process has ended (the `forget` effect): state/departing.ts.
          const last = this.records.get(id);
          if (proc.pid > 0 && last) this.deps.departing?.set(id, { record: last, pid: proc.pid });
        } else if (runsHere(record) && !this.states.has(id)) created.push(id);
        else if (!record) this.departures.forget(id); // removed before it ever started
      }
      this.departures.replaced(removed, created);
      return changedIds(change);
    },
    observed: ({ id, prev, next }: ObservedChange): string[] => {
      const keys: string[] = [];
      // Own conditions published by others: the health verdict refines Running; restart requests.
      if (next && ((prev?.health?.healthy ?? null) !== (next.health?.healthy ?? null) || prev?.restart_requests !== next.restart_requests)) keys.push(id);
      // A program that lost its `cron`: the last run of its former schedule ended (formerRunsBlocker).
      if (next && (prev?.cron?.running ?? 0) > 0 && (next.cron?.running ?? 0) === 0) keys.push(id);
      // A reload's successor judged by the health controller.
      if (next && (prev?.successor_health?.healthy ?? null) !== (next.successor_health?.healthy ?? null)) keys.push(id);
      // The artifact gate may have opened (the OTA controller inspected or installed the destination).
      const config = this.deps.store.get(id)?.config;
      if (next && config && prev?.ota !== next.ota && artifactBlocker(config, prev?.ota) !== artifactBlocker(config, next.ota)) keys.push(id);
      if ((prev?.status ?? null) !== (next?.status ?? null)) {
        // The start gate of dependants may have opened; the stop gate of others may have.
        const name = config?.name;
        if (name) keys.push(...this.dependants.of(name));
        if (prev && ALIVE.has(prev.status) && !(next && ALIVE.has(next.status))) keys.push(...this.waitingToStop);
      }
      return keys;
    },
  };

  /** Every program, lowest priority number first (start order at boot). */
  initialKeys(): string[] {
    return this.deps.store
      .list()
      .sort((a, b) => withDefaults(a.config).priority - withDefaults(b.config).priority)
      .map((r) => r.id);
  }

  /** Re-adopts the processes that outlived the previous daemon, before any loop runs. */
  async prepare(): Promise<void> {
    const { runtime, os, store, boot, log } = this.deps;
    const records = (await runtime?.loadAll()) ?? new Map();
    // The spawner's list (empty without it): its live children, and the exits it kept for us.
    const recovered = await os.recover();
    const found: Candidate[] = os.findProgramProcesses(this.deps.spawnContext.root);
    const known = (pid: number, startTime: number) => found.some((f) => f.pid === pid && f.startTime === startTime);
    // A tag names the program (and the slot of a cron run, which the cron controller adopts).
    const byTag = (tag: string) => {
      const { programId, cronSlot } = parseSpawnTag(tag);
      return cronSlot === undefined ? { programId, role: 'program' as const } : { programId, role: 'cron' as const, cronSlot };
    };
    for (const e of recovered.exited) {
      if (e.tag && !known(e.pid, e.startTime)) found.push({ pid: e.pid, startTime: e.startTime, ...byTag(e.tag), startedAtMs: e.startedAt, exited: true });
    }
    for (const p of recovered.live) {
      // A program that rewrote its environment (process titles) is still the spawner's child.
      if (p.tag && !known(p.pid, p.startTime)) found.push({ pid: p.pid, startTime: p.startTime, ...byTag(p.tag), startedAtMs: p.startedAt });
    }
    for (const [id, r] of records) {
      if (!known(r.pid, r.startTime) && os.startTimeOf(r.pid) === r.startTime) found.push({ pid: r.pid, startTime: r.startTime, programId: id, role: 'program' });
    }
    const plan = planAdoption(records, found, (id) => {
      const record = store.get(id);
      if (!record) return store.isQuarantined(id) ? 'quarantined' : null;
      return runsHere(record) ? 'process' : 'cron';
    });
    for (const p of plan.untouched) log?.warn('a process of a quarantined program survives from a previous daemon; left alone', { pid: p.pid, program_id: p.programId });
    for (const stray of plan.strays) {
      log?.warn('ending a process left by a previous daemon', { pid: stray.pid, program_id: stray.programId, role: stray.role });
      os.signal(stray.pid, 'SIGKILL', true);
      const kept = stray.role === 'program' ? plan.adopt.get(stray.programId) : undefined;
      if (kept) this.afterAdoption.set(stray.programId, interruptedReload(stray, kept));
    }
    for (const id of records.keys()) if (!plan.adopt.has(id)) runtime?.set(id, null);
    const now = this.deps.clock.now();
    await this.restoreSupervision(new Set(plan.adopt.keys()));
    for (const [id, a] of plan.adopt) {
      const stopsecs = a.stopsecs ?? withDefaults(store.get(id)!.config).stopsecs;
      const proc = { pid: a.pid, startTime: a.startTime, startedAt: a.startedAt ?? now, stopsecs, adopted: true };
      // A stop the previous daemon began goes on to its deadline (SIGKILL then), for its reason.
      this.states.set(id, { ...initialProcState(store.get(id)?.intent), status: a.stopping ? 'Stopping' : 'Running', proc, stopping: a.stopping });
      runtime?.set(id, runtimeRecord(proc, a.stopping));
      os.watchAdopted({ pid: a.pid, startTime: a.startTime }, (exit) => this.observeExit(id, a.pid, exit));
      boot.adopted.add(id);
      this.publish(id);
    }
  }

  async close(): Promise<void> {
    // Records stay as they are at a graceful shutdown too: the next svcd restores them only if
    // this one crashed (the live marker says which), and deletes them otherwise.
    await this.deps.runtime?.flush();
    await this.deps.supervision?.flush();
  }

  /**
   * After a crash of svcd (the live marker's verdict: same machine boot, no graceful shutdown): a
   * program that was Fatal is Fatal again, one that Exited stays so, one in Backoff waits for the
   * retry it had, with its retry count. Not for a program whose process was re-adopted (its state
   * is its process's) or that is gone. After a boot or a graceful shutdown the records are only
   * deleted: the boot rules decide.
   */
  private async restoreSupervision(adopted: ReadonlySet<string>): Promise<void> {
    const { supervision, store, boot } = this.deps;
    if (!supervision) return;
    for (const [id, r] of await supervision.loadCurrent()) {
      const record = store.get(id);
      if (!boot.crashed || !record || !runsHere(record) || adopted.has(id)) {
        supervision.set(id, null);
        continue;
      }
      const restored: ProcState = { ...initialProcState(record.intent), status: r.status, retries: r.retries, restarts: r.restarts, nextRetryAt: r.next_retry_at, lastExit: r.last_exit };
      this.states.set(id, restored);
      this.kept.set(id, JSON.stringify(supervisionOf(restored)));
      this.publish(id);
    }
  }

  /** Writes the program's supervision record when it changed (Backoff, Fatal and Exited have one; other states none). */
  private keepSupervision(id: string, s: ProcState): void {
    const { supervision } = this.deps;
    if (!supervision) return;
    const record = supervisionOf(s);
    const text = record ? JSON.stringify(record) : '';
    if ((this.kept.get(id) ?? '') === text) return;
    if (record) this.kept.set(id, text);
    else this.kept.delete(id);
    supervision.set(id, record);
  }

  reconcile = async (id: string): Promise<Result | void> => {
    const { store, clock, observed, boot } = this.deps;
    const current = this.states.get(id);
    const stored = store.get(id);
    const record = runsHere(stored) ? stored : undefined; // one that just gained `cron` is stopped as if removed
    if (!record && !current) return;
    const state = current ?? initialProcState(record?.intent);
    if (record) this.records.set(id, record);
    const interrupted = this.afterAdoption.get(id);
    if (interrupted) {
      this.afterAdoption.delete(id);
      this.deps.events.emit({ ...interrupted, program_id: id, program_name: this.nameOf(id) });
    }
    const now = clock.now();
    const input: PlanInput = {
      id,
      config: record ? withDefaults(record.config) : undefined,
      intent: record?.intent,
      run: record ? runIntent(record, boot) : 'stopped',
      state,
      now,
      random: (this.deps.random ?? Math.random)(),
      blockedBy: record
        ? (formerRunsBlocker(observed.get(id)) ?? this.departures.blocker(id) ?? artifactBlocker(record.config, observed.get(id).ota) ?? dependencyBlocker(store, observed, id))
        : null,
      stopBlockedBy: record && state.proc ? this.stopGate.blocker(id) : null,
      shutdown: observed.shuttingDown,
      restartRequest: restartRequestFor(observed.get(id).restart_requests, state.proc?.pid),
      lastQuickRestartAt: this.paceSince(now),
      ...reloadInputs(record?.config, state, observed.get(id)),
    };
    const plan = planProcess(input);
    this.states.set(id, plan.next);
    if (!plan.next.proc) this.departures.gone(id);
    if (plan.next.proc && plan.next.proc === state.proc && plan.next.stopping !== state.stopping) this.deps.runtime?.set(id, runtimeRecord(plan.next.proc, plan.next.stopping));
    // The pace is shared by every key: record it before any await, so a key reconciled meanwhile sees it.
    for (const e of plan.effects) if (e.kind === 'paced') this.lastQuickRestartAt = Math.max(this.lastQuickRestartAt, e.at);
    if (plan.next.proc && plan.next.waiting && !plan.next.stopping) this.waitingToStop.add(id);
    else this.waitingToStop.delete(id);
    let requeueNow = false;
    for (const effect of plan.effects) requeueNow = (await this.apply(id, input, effect)) || requeueNow;
    if (stored && !record) this.publishHandover(id);
    this.publish(id);
    if (requeueNow) return { requeueAfterMs: 0 };
    if (plan.requeueAt !== undefined) return { requeueAfterMs: Math.max(0, plan.requeueAt - clock.now()) };
  };

  /** Returns true when the key must be reconciled again at once (a spawn failed). */
  private async apply(id: string, input: PlanInput, effect: Effect): Promise<boolean> {
    const { os, events, clock } = this.deps;
    switch (effect.kind) {
      case 'event':
        // The plan names a program by its config, which a removed program no longer has.
        events.emit(effect.event.program_name == null ? { ...effect.event, program_name: this.nameOf(id) } : effect.event);
        return false;
      case 'signal': {
        const pid = this.states.get(id)?.proc?.pid;
        if (pid) os.signal(pid, effect.signal, true);
        return false;
      }
      case 'forget':
        this.deps.departing?.delete(id);
        this.states.delete(id);
        this.records.delete(id);
        this.departures.forget(id);
        if (this.kept.delete(id)) this.deps.supervision?.set(id, null);
        this.waitingToStop.delete(id);
        if (!this.deps.store.get(id)) this.deps.observed.delete(id);
        this.deps.runtime?.set(id, null);
        return false;
      case 'spawn':
        return this.spawn(id, input, clock.now());
      case 'paced':
        return false; // recorded in reconcile, before the first await
      case 'pre_start':
      case 'post_stop':
        this.launchHook(id, input, effect);
        return false;
      case 'spawn_successor':
        return spawnSuccessor(this.reloadDeps(id), input, effect);
      case 'signal_overlap': {
        const pid = this.states.get(id)?.overlap?.proc.pid;
        if (pid) os.signal(pid, effect.signal, true);
        return false;
      }
      case 'promote': {
        // The successor is the program's process: a restarted daemon re-adopts it, not the old one.
        const proc = this.states.get(id)?.proc;
        if (proc) this.deps.runtime?.set(id, runtimeRecord(proc, null));
        return false;
      }
      default: {
        const never: never = effect;
        throw new TypeError(`unknown effect ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * Hooks run outside the reconcile pass (up to HOOK_TIMEOUT_MS); the outcome is recorded as an
   * observation and wakes the key, so the program's key is never blocked while one runs.
   */
  private launchHook(id: string, input: PlanInput, effect: Extract<Effect, { kind: 'pre_start' | 'post_stop' }>): void {
    const config = input.config!;
    const command = config.hooks?.[effect.kind];
    const field = effect.kind === 'pre_start' ? 'preStart' : 'postStop';
    const settle = (error: string | null) => {
      const state = this.states.get(id);
      const run: HookRun | null | undefined = state?.[field];
      if (!state || !run || run.token !== effect.token) return; // an abandoned attempt
      this.states.set(id, { ...state, [field]: { token: run.token, outcome: { error } } });
      this.deps.wake(id);
    };
    let started: Promise<string | null>;
    try {
      const spec = buildSpawnSpec(id, config, this.deps.spawnContext, this.deps.os);
      started = runHook(this.deps.os, effect.kind, command!, spec, effect.kind === 'post_stop' ? effect.exit : undefined);
    } catch (err) {
      started = Promise.resolve(`hooks.${effect.kind}: ${(err as Error).message}`);
    }
    void started.then(settle, (err: unknown) => settle(`hooks.${effect.kind}: ${(err as Error).message}`));
  }

  private async spawn(id: string, input: PlanInput, now: number): Promise<boolean> {
    const config = input.config!;
    const state = this.states.get(id)!;
    const stopsecs = config.stopsecs;
    try {
      const spec = buildSpawnSpec(id, config, this.deps.spawnContext, this.deps.os);
      const handle = await this.deps.os.spawn(spec, (exit) => this.observeExit(id, handle.pid, exit));
      const startedAt = this.deps.clock.now();
      const proc = { pid: handle.pid, startTime: handle.startTime, startedAt, stopsecs, adopted: false };
      this.states.set(id, { ...this.states.get(id)!, status: 'Running', proc });
      this.deps.runtime?.set(id, runtimeRecord(proc, null));
      const attempt = state.retries > 0 ? ` (retry ${state.retries})` : '';
      this.deps.events.emit({ event: 'process_started', program_id: id, program_name: config.name, msg: `started pid ${handle.pid}${attempt}` });
      return false;
    } catch (err) {
      // A process that never started is judged like an exit: the restart policy decides.
      const proc = { pid: 0, startTime: 0, startedAt: now, stopsecs, adopted: false };
      this.states.set(id, { ...this.states.get(id)!, proc, exit: { code: null, signal: null, error: (err as Error).message } });
      return true;
    }
  }

  /** Records an exit reported by the OS (an observation, not a decision) and wakes the key. */
  private observeExit(id: string, pid: number, exit: ExitInfo): void {
    const state = this.states.get(id);
    if (state?.overlap?.proc.pid === pid) {
      // A reload's second process (successor, or the old one being retired).
      this.states.set(id, { ...state, overlap: { ...state.overlap, exit } });
      this.deps.wake(id);
      return;
    }
    if (!state?.proc || state.proc.pid !== pid) return;
    this.states.set(id, { ...state, exit });
    this.deps.runtime?.set(id, null);
    this.deps.wake(id);
  }

  /** What the reload applier (reload-apply.ts) may touch for one program. */
  private reloadDeps(id: string) {
    return {
      id,
      os: this.deps.os,
      clock: this.deps.clock,
      events: this.deps.events,
      spawnContext: this.deps.spawnContext,
      get: () => this.states.get(id)!,
      set: (next: ProcState) => this.states.set(id, next),
      onExit: (pid: number, exit: ExitInfo) => this.observeExit(id, pid, exit),
    };
  }

  /** The daemon-wide restart pace; one far ahead of now was set before the wall clock was stepped back, and starts again. */
  private paceSince(now: number): number {
    if (this.lastQuickRestartAt > now + PACE_HORIZON_MS) this.lastQuickRestartAt = -Infinity;
    return this.lastQuickRestartAt;
  }

  private nameOf(id: string): string | null {
    return this.records.get(id)?.config.name ?? null;
  }

  owns(id: string): boolean {
    return this.states.has(id) || runsHere(this.deps.store.get(id));
  }

  signal(id: string, signal: SignalName): boolean {
    const state = this.states.get(id);
    // A removed program's every process (svc rm --force kills): a reload's second process too.
    const second = !runsHere(this.deps.store.get(id)) && state?.overlap && state.overlap.proc.pid > 0 && !state.overlap.exit ? state.overlap.proc.pid : 0;
    if (second) this.deps.os.signal(second, signal, true);
    const proc = state?.proc;
    if (!proc || proc.pid <= 0) return second > 0;
    this.deps.os.signal(proc.pid, signal, true);
    return true;
  }

  livePids(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, state] of this.states) if (state.proc && state.proc.pid > 0) out.set(id, state.proc.pid);
    return out;
  }

  /**
   * A program that gained `cron` is the cron controller's, but its service process is still
   * stopping here: the pid is published so that no run of the schedule starts beside it.
   */
  private publishHandover(id: string): void {
    const s = this.states.get(id);
    const pid = s?.proc?.pid ?? s?.overlap?.proc.pid ?? 0;
    const former = pid > 0 ? pid : undefined;
    if (this.deps.observed.get(id).former_pid !== former) this.deps.observed.update(id, { former_pid: former });
  }

  private publish(id: string): void {
    const s = this.states.get(id);
    if (!s || !runsHere(this.deps.store.get(id))) return;
    this.keepSupervision(id, s);
    // With only a reload's second process left (being stopped), that one is what is alive.
    const second = !s.proc && s.overlap && s.overlap.proc.pid > 0 ? s.overlap.proc : null;
    const live = s.proc && s.proc.pid > 0 ? s.proc : second;
    const healthy = this.deps.observed.get(id).health?.healthy ?? null;
    // Running is refined by the health verdict (a condition the health controller publishes).
    const status = second ? 'Stopping' : s.status === 'Running' && healthy !== null ? (healthy ? 'Healthy' : 'Unhealthy') : s.status;
    this.deps.observed.update(id, {
      status,
      pid: live?.pid ?? null,
      started_at: live?.startedAt ?? null,
      retries: s.retries,
      restarts: s.restarts,
      next_retry_at: s.nextRetryAt,
      last_exit: s.lastExit,
      // Fatal by a spawn that cannot heal: the reason stays visible in `svc info` and the list.
      detail: s.waiting ?? (s.status === 'Fatal' && s.lastExit?.reason === 'spawn_failed' ? s.lastExit.msg : null),
      applied_start_seq: s.appliedStart,
      applied_restart_seq: s.appliedRestart,
      applied_reload_seq: s.appliedReload,
      reload: reloadView(s.overlap),
      last_reload: s.lastReload,
      ...(live ? {} : { cpu_usage: 0, mem_usage: 0 }),
    });
  }
}

/**
 * Two live processes of one program at start-up: svcd ended during a reload (docs/reload.md). The
 * runtime record names the old process until the hand-over, the new one after it: a stray that
 * started after the kept process was the reload's new process, one that started before it was
 * the old process being stopped. Either way the next svcd ended it; this says so in the history.
 */
function interruptedReload(stray: ProgramProcess, kept: Adoption): Omit<EventInput, 'program_id' | 'program_name'> {
  if (stray.startTime > kept.startTime) {
    return { event: 'reload_failed', signal: 9, msg: `reload failed: svcd ended during the reload; the next svcd ended the new pid ${stray.pid} (SIGKILL); pid ${kept.pid} keeps running` };
  }
  return { event: 'process_exit', signal: 9, msg: `pid ${stray.pid} stopped after a reload handed over to its new process: killed by the next svcd (SIGKILL), as svcd ended while it was stopping` };
}

/** The restart request that targets this exact process, if any (stale ones name an older pid). */
function restartRequestFor(requests: Readonly<Record<string, RestartRequest>> | undefined, pid: number | undefined): RestartRequest | null {
  if (!requests || !pid) return null;
  for (const request of Object.values(requests)) if (request.pid === pid) return request;
  return null;
}

/** What a restarted daemon needs to re-adopt the process, and to go on with a stop begun. */
function runtimeRecord(proc: LiveProcess, stopping: StopInProgress | null): RuntimeRecord {
  return { pid: proc.pid, startTime: proc.startTime, startedAt: proc.startedAt, stopsecs: proc.stopsecs, ...(stopping ? { stopping } : {}) };
}

/** The supervision record of a state with no process that a crash must not lose, or null. */
function supervisionOf(s: ProcState): Omit<SupervisionRecord, 'boot_id'> | null {
  if ((s.status !== 'Backoff' && s.status !== 'Fatal' && s.status !== 'Exited') || s.proc) return null;
  return { status: s.status, retries: s.retries, restarts: s.restarts, next_retry_at: s.status === 'Backoff' ? s.nextRetryAt : null, last_exit: s.lastExit };
}

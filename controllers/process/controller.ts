import type { Clock } from '../../reconciler/clock.js';
import type { Result } from '../../reconciler/reconciler.js';
import type { EventSink } from '../../state/events/types.js';
import type { ObservedRegistry } from '../../state/observed.js';
import { withDefaults, type ProgramRecord } from '../../state/program.js';
import type { RuntimeRecord, RuntimeStore } from '../../state/runtime-store.js';
import type { ProgramStore } from '../../state/store.js';
import type { SignalName } from '../../state/signals.js';
import type { ExitInfo, OsPort } from '../os/port.js';
import { planProcess, type Effect, type PlanInput } from './plan.js';
import { initialProcState, type ProcState } from './proc-state.js';
import { buildSpawnSpec, type SpawnContext } from './spawn-spec.js';
import { runHook } from './hooks.js';

export interface ProcessControllerDeps {
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  os: OsPort;
  clock: Clock;
  runtime: RuntimeStore | null;
  spawnContext: SpawnContext;
  /** Asks the loop to reconcile a key now (wired to the reconciler). */
  enqueue: (id: string) => void;
  random?: () => number;
  /** Null when the program may start; otherwise what it is waiting for (depends_on gate). */
  blockedBy?: (id: string) => string | null;
}

/**
 * Keeps each program's process as its intent says: starts, stops, restarts by policy. The
 * decisions are in plan.ts; this file observes (exits from the OS port), applies effects and
 * publishes the observed state.
 */
export class ProcessController {
  private readonly states = new Map<string, ProcState>();

  constructor(private readonly deps: ProcessControllerDeps) {}

  reconcile = async (id: string): Promise<Result | void> => {
    const { store, clock } = this.deps;
    const current = this.states.get(id);
    // Gate: programs with `cron` belong to the cron controller (controllers/cron), which spawns
    // and publishes them. One that just gained `cron` is stopped here as if removed.
    const record = cronOwned(store.get(id)) ? undefined : store.get(id);
    if (!record && !current) return;
    const input: PlanInput = {
      id,
      config: record ? withDefaults(record.config) : undefined,
      intent: record?.intent,
      state: current ?? initialProcState(record?.intent),
      now: clock.now(),
      random: (this.deps.random ?? Math.random)(),
      blockedBy: record && this.deps.blockedBy ? this.deps.blockedBy(id) : null,
      restartRequests: this.deps.observed.get(id).restart_requests,
    };
    const plan = planProcess(input);
    this.states.set(id, plan.next);
    let requeueNow = false;
    for (const effect of plan.effects) requeueNow = (await this.apply(id, input, effect)) || requeueNow;
    this.publish(id);
    if (requeueNow) return { requeueAfterMs: 0 };
    if (plan.requeueAt !== undefined) return { requeueAfterMs: Math.max(0, plan.requeueAt - clock.now()) };
  };

  /** Returns true when the key must be reconciled again at once (a spawn failed). */
  private async apply(id: string, input: PlanInput, effect: Effect): Promise<boolean> {
    const { os, events, clock } = this.deps;
    switch (effect.kind) {
      case 'event':
        events.emit(effect.event);
        return false;
      case 'signal': {
        const pid = this.states.get(id)?.proc?.pid;
        if (pid) os.signal(pid, effect.signal, true);
        return false;
      }
      case 'forget':
        this.states.delete(id);
        if (!cronOwned(this.deps.store.get(id))) this.deps.observed.delete(id);
        this.deps.runtime?.set(id, null);
        return false;
      case 'spawn':
        return this.spawn(id, input, clock.now());
      case 'post_stop': {
        // Awaited so that a restart waits for it; a failure is only logged to the program's log.
        const config = input.config;
        if (config?.hooks?.post_stop) {
          try {
            await runHook(os, 'post_stop', config.hooks.post_stop, buildSpawnSpec(id, config, this.deps.spawnContext, os), effect.exit);
          } catch {
            // the environment cannot be built (e.g. env_file gone): the next start reports it
          }
        }
        return false;
      }
      default: {
        const never: never = effect;
        throw new TypeError(`unknown effect ${JSON.stringify(never)}`);
      }
    }
  }

  private async spawn(id: string, input: PlanInput, now: number): Promise<boolean> {
    const config = input.config!;
    const state = this.states.get(id)!;
    const stopsecs = config.stopsecs;
    try {
      const spec = buildSpawnSpec(id, config, this.deps.spawnContext, this.deps.os);
      if (config.hooks?.pre_start) {
        const failure = await runHook(this.deps.os, 'pre_start', config.hooks.pre_start, spec);
        if (failure) throw new Error(failure);
      }
      const handle = await this.deps.os.spawn(spec, (exit) => this.observeExit(id, handle.pid, exit));
      const startedAt = this.deps.clock.now();
      const proc = { pid: handle.pid, startTime: handle.startTime, startedAt, stopsecs, adopted: false };
      this.states.set(id, { ...this.states.get(id)!, status: 'Running', proc });
      this.deps.runtime?.set(id, { pid: handle.pid, startTime: handle.startTime, startedAt, stopsecs });
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
    if (!state?.proc || state.proc.pid !== pid) return;
    this.states.set(id, { ...state, exit });
    this.deps.runtime?.set(id, null);
    this.deps.enqueue(id);
  }

  /** Re-adopts a process that outlived a previous daemon (same pid and start time). */
  adopt(id: string, record: RuntimeRecord): boolean {
    const { os } = this.deps;
    if (os.startTimeOf(record.pid) !== record.startTime) return false;
    const intent = this.deps.store.get(id)?.intent;
    const proc = { pid: record.pid, startTime: record.startTime, startedAt: record.startedAt, stopsecs: record.stopsecs, adopted: true };
    this.states.set(id, { ...initialProcState(intent), status: 'Running', proc });
    os.watchAdopted({ pid: record.pid, startTime: record.startTime }, (exit) => this.observeExit(id, record.pid, exit));
    this.publish(id);
    return true;
  }

  /** Marks programs to be stopped for daemon shutdown (stored intent is kept). */
  markShutdown(ids: string[]): void {
    for (const id of ids) {
      const state = this.states.get(id);
      if (state) this.states.set(id, { ...state, shutdown: true });
      this.deps.enqueue(id);
    }
  }

  /** The health controller asks for a restart of this exact process (restart_on_failure). */
  restartForHealth(id: string, pid: number): void {
    const state = this.states.get(id);
    if (!state?.proc || state.proc.pid !== pid) return;
    this.states.set(id, { ...state, healthRestartPid: pid });
    this.deps.enqueue(id);
  }

  /** Sends a user signal to the program's process group; false when nothing is running. */
  signal(id: string, signal: SignalName): boolean {
    const proc = this.states.get(id)?.proc;
    if (!proc || proc.pid <= 0) return false;
    this.deps.os.signal(proc.pid, signal, true);
    return true;
  }

  /** Pids of live processes, for the usage sampler. */
  livePids(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, state] of this.states) if (state.proc && state.proc.pid > 0) out.set(id, state.proc.pid);
    return out;
  }

  private publish(id: string): void {
    const s = this.states.get(id);
    if (!s || cronOwned(this.deps.store.get(id))) return;
    const live = s.proc && s.proc.pid > 0 ? s.proc : null;
    const healthy = this.deps.observed.get(id).health?.healthy ?? null;
    // Running is refined by the health verdict (published by the health controller).
    const status = s.status === 'Running' && healthy !== null ? (healthy ? 'Healthy' : 'Unhealthy') : s.status;
    this.deps.observed.update(id, {
      status,
      pid: live?.pid ?? null,
      started_at: live?.startedAt ?? null,
      retries: s.retries,
      restarts: s.restarts,
      next_retry_at: s.nextRetryAt,
      last_exit: s.lastExit,
      detail: s.waiting,
      applied_start_seq: s.appliedStart,
      applied_restart_seq: s.appliedRestart,
      ...(live ? {} : { cpu_usage: 0, mem_usage: 0 }),
    });
  }
}

/** A program with `cron` is the cron controller's. */
function cronOwned(record: ProgramRecord | undefined): boolean {
  return record?.config.cron !== undefined;
}

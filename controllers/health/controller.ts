import type { Clock } from '../../reconciler/clock.js';
import type { Result } from '../../reconciler/reconciler.js';
import type { EventSink } from '../../state/events/types.js';
import type { ObservedChange, ObservedRegistry } from '../../state/observed.js';
import { withDefaults, type ProgramConfig, type ProgramRecord } from '../../state/program.js';
import type { ProgramStore } from '../../state/store.js';
import type { OsPort } from '../os/port.js';
import { featureKeys, type DesiredChange, type ProgramController } from '../program-controller.js';
import { splitCommand } from '../../state/command-line.js';
import { buildSpawnSpec, type SpawnContext } from '../process/spawn-spec.js';
import type { HealthVerdictRecord, HealthVerdicts } from '../../state/health-verdicts.js';
import { checkKey, effectiveCheck, planHealth, resumedState, type EffectiveCheck, type HealthState } from './plan.js';
import type { ProbeOutcome, ProbePort } from './probe-port.js';

export interface HealthControllerDeps {
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  clock: Clock;
  probes: ProbePort;
  os: OsPort;
  spawnContext: SpawnContext;
  /** Queues one of this controller's keys (a probe finished). */
  wake: (id: string) => void;
  /** Verdicts kept across a crash of svcd (state/health-verdicts.ts); absent: in memory only. */
  verdicts?: HealthVerdicts;
}

/** Whether a config has a health check (enabled or not: a disabled one still withdraws a verdict). */
const hasCheck = (config: ProgramConfig): boolean => config.health_check !== undefined;

/**
 * Runs the health probes of programs with an enabled health_check while their process is
 * alive. Probes run in the background: a hanging endpoint costs one timeout, never a stalled
 * loop. Decisions are in plan.ts. It publishes two conditions: the verdict (`health`, which the
 * process controller turns into Healthy/Unhealthy) and, with restart_on_failure, a restart
 * request for the failing process (`restart_requests.health`).
 */
export class HealthController implements ProgramController {
  readonly name = 'health';
  private readonly states = new Map<string, HealthState>();
  /** Probing of reload successors (docs/reload.md), beside the program's own process. */
  private readonly successors = new Map<string, HealthState>();
  /** Probes in flight, by slot (`states` or `successors`) and id: what they judge, and how to end them. */
  private readonly inFlight = new Map<Map<string, HealthState>, Map<string, { pid: number; check: string; abort: AbortController }>>([
    [this.states, new Map()],
    [this.successors, new Map()],
  ]);

  /** Verdicts the last svcd left, until each program's first pass takes (or drops) its own. */
  private readonly restored = new Map<string, HealthVerdictRecord>();
  /** What is on disk for each program: the process and verdict last written. */
  private readonly persisted = new Map<string, { pid: number; healthy: boolean }>();

  constructor(private readonly deps: HealthControllerDeps) {}

  async prepare(): Promise<void> {
    if (!this.deps.verdicts) return;
    // The process controller prepares first: a re-adopted process is already published.
    for (const [id, r] of await this.deps.verdicts.loadAll()) {
      const o = this.deps.store.get(id) && this.deps.observed.has(id) ? this.deps.observed.get(id) : null;
      if (o?.pid === r.pid && o.started_at === r.started_at) {
        this.restored.set(id, r);
        this.persisted.set(id, { pid: r.pid, healthy: r.healthy });
      } else this.deps.verdicts.set(id, null); // its process ended, or the program was removed, while svcd was down
    }
  }

  readonly watches = {
    // Probes depend on the config's check; a start or stop shows in the observed state.
    desired: (change: DesiredChange): string[] => featureKeys(change, { store: this.deps.store, uses: hasCheck, known: (id) => this.known(id), intents: false }),
    // A new process, or one that began stopping, changes what to probe: for programs with a
    // check, or with a verdict still to withdraw.
    observed: ({ id, prev, next }: ObservedChange): string[] =>
      (prev?.pid !== next?.pid || prev?.status !== next?.status || prev?.reload?.pid !== next?.reload?.pid || prev?.reload?.phase !== next?.reload?.phase) && this.concerns(id) ? [id] : [],
  };

  /** A program this controller still keeps a verdict or a probe schedule for. */
  private known(id: string): boolean {
    return this.states.has(id) || this.successors.has(id);
  }

  private concerns(id: string): boolean {
    const config = this.deps.store.get(id)?.config;
    return this.known(id) || (config !== undefined && hasCheck(config));
  }

  async close(): Promise<void> {
    await this.deps.verdicts?.flush();
  }

  reconcile = async (id: string): Promise<Result | void> => {
    const { store, observed, clock } = this.deps;
    const record = store.get(id);
    const check = record && !record.config.cron ? effectiveCheck(record.config.health_check) : null;
    const o = observed.get(id);
    const alive = o.pid !== null && o.started_at !== null && o.status !== 'Stopping' ? { pid: o.pid, startedAt: o.started_at } : null;
    const previous = this.states.get(id);
    let before = previous ?? this.resumed(id, check, alive);
    // A reload handed over: the successor's verdict carries over, so Healthy stays Healthy. A probe
    // in flight reports to the successor's slot and is dropped, so the next one is due at once.
    const carried = this.successors.get(id);
    if (alive && previous?.pid !== alive.pid && carried?.pid === alive.pid) before = carried.probing ? { ...carried, probing: false, nextProbeAt: clock.now() } : carried;
    const successor = this.reconcileSuccessor(id, record, check, o.reload?.phase === 'successor' ? o.reload : null);
    const plan = planHealth({ id, name: record?.config.name ?? '', check, alive, state: before, now: clock.now() });
    if (plan.next) this.states.set(id, plan.next);
    else this.states.delete(id);
    this.abandon(this.states, id);
    for (const effect of plan.effects) {
      switch (effect.kind) {
        case 'event':
          this.deps.events.emit(effect.event);
          break;
        case 'probe':
          this.launch(id, record!, check!, plan.next!.pid, this.states);
          break;
        case 'restart':
          observed.requestRestart(id, 'health', { pid: plan.next!.pid, reason: 'failing health check', planned: false });
          break;
        default: {
          const never: never = effect;
          throw new TypeError(`unknown effect ${JSON.stringify(never)}`);
        }
      }
    }
    this.publish(id, previous, plan.next);
    this.persist(id, plan.next);
    const at = [plan.requeueAt, successor].filter((t): t is number => t !== undefined);
    if (at.length > 0) return { requeueAfterMs: Math.max(0, Math.min(...at) - clock.now()) };
  };

  /**
   * Probes a reload's successor with the program's check and publishes its verdict with its pid
   * (`successor_health`), which the process controller waits for. Only the verdict: no events and
   * no restart requests (the reload's own bound and the process planner decide). Returns when to
   * look again.
   */
  private reconcileSuccessor(id: string, record: ProgramRecord | undefined, check: EffectiveCheck | null, successor: { pid: number; started_at: number } | null): number | undefined {
    const before = this.successors.get(id);
    const alive = successor ? { pid: successor.pid, startedAt: successor.started_at } : null;
    const plan = planHealth({ id, name: record?.config.name ?? '', check, alive, state: before, now: this.deps.clock.now() });
    if (plan.next) this.successors.set(id, plan.next);
    else this.successors.delete(id);
    this.abandon(this.successors, id);
    if (plan.effects.some((e) => e.kind === 'probe')) this.launch(id, record!, check!, plan.next!.pid, this.successors);
    if (before?.view !== plan.next?.view && this.deps.observed.has(id)) {
      this.deps.observed.update(id, { successor_health: plan.next ? { ...plan.next.view, pid: plan.next.pid } : null });
    }
    return plan.requeueAt;
  }

  /** The verdict the last svcd left for this process, taken once (re-adopted after a crash), or undefined. */
  private resumed(id: string, check: EffectiveCheck | null, alive: { pid: number; startedAt: number } | null): HealthState | undefined {
    const r = this.restored.get(id);
    if (!r) return undefined;
    this.restored.delete(id);
    return check && alive && r.pid === alive.pid && r.started_at === alive.startedAt ? resumedState(r, checkKey(check), this.deps.clock.now()) : undefined;
  }

  /** Writes the verdict when it turned or moved to another process (a reload), and drops it with the process. */
  private persist(id: string, next: HealthState | null): void {
    if (!this.deps.verdicts) return;
    const kept = this.persisted.get(id);
    const healthy = next?.view.healthy ?? null;
    if (healthy === null) {
      if (kept) this.forget(id);
      return;
    }
    if (kept?.pid === next!.pid && kept.healthy === healthy) return;
    const { view } = next!;
    this.deps.verdicts.set(id, { pid: next!.pid, started_at: next!.startedAt, healthy, failures: view.failures, successes: view.successes, passed: next!.passed, last: view.last });
    this.persisted.set(id, { pid: next!.pid, healthy });
  }

  private forget(id: string): void {
    this.persisted.delete(id);
    this.deps.verdicts?.set(id, null);
  }

  private publish(id: string, before: HealthState | undefined, after: HealthState | null): void {
    // A request for an earlier process is withdrawn once that process is gone.
    if (before && before.pid !== after?.pid) this.deps.observed.requestRestart(id, 'health', null);
    if (before?.view === after?.view) return;
    if (!this.deps.observed.has(id)) return;
    this.deps.observed.update(id, { health: after?.view ?? null });
  }

  /**
   * Ends the probe in flight for a slot when what it judges is gone: the process stopped or was
   * replaced, the program was removed or its check changed. Its result would be dropped anyway,
   * and it would otherwise hold its process group or socket until its timeout (up to an hour).
   */
  private abandon(states: Map<string, HealthState>, id: string): void {
    const running = this.inFlight.get(states)!;
    const probe = running.get(id);
    const state = states.get(id);
    if (!probe || (state && state.pid === probe.pid && state.check === probe.check)) return;
    running.delete(id);
    probe.abort.abort();
  }

  private launch(id: string, record: ProgramRecord, check: EffectiveCheck, pid: number, states: Map<string, HealthState>): void {
    const started = this.deps.clock.now();
    const key = states.get(id)!.check;
    const running = this.inFlight.get(states)!;
    const abort = new AbortController();
    running.set(id, { pid, check: key, abort });
    void this.probe(id, record, check, pid, abort.signal).then((outcome) => {
      if (running.get(id)?.abort === abort) running.delete(id);
      const state = states.get(id);
      // The process or the check changed while probing: the result is not about what is judged now.
      if (!state || state.pid !== pid || state.check !== key) return;
      const at = this.deps.clock.now();
      states.set(id, { ...state, pending: { at, ok: outcome.ok, latency_ms: at - started, message: outcome.message } });
      this.deps.wake(id);
    });
  }

  private async probe(id: string, record: ProgramRecord, check: EffectiveCheck, pid: number, abort: AbortSignal): Promise<ProbeOutcome> {
    const timeoutMs = check.timeout_secs * 1000;
    try {
      switch (check.type) {
        case 'tcp':
          return await this.deps.probes.tcp(check.host, check.port!, timeoutMs, abort);
        case 'http':
          return await this.deps.probes.http(check.url!, timeoutMs, abort);
        case 'exec': {
          // The probe runs as the program does: its user and groups, environment and working directory.
          const { cwd, env, uid, gid, groups } = buildSpawnSpec(id, withDefaults(record.config), this.deps.spawnContext, this.deps.os);
          const words = check.args ? [check.command!, ...check.args] : commandWords(check.command!);
          if (typeof words === 'string') return { ok: false, message: `health_check.command: ${words}` };
          const [file, ...args] = words;
          // SVC_PROBE_PID: the process being judged (during a reload, two run: docs/reload.md).
          return await this.deps.probes.exec({ file, args, cwd, env: { ...env, SVC_PROBE: 'exec', SVC_PROBE_PID: String(pid) }, uid, gid, groups }, timeoutMs, abort);
        }
      }
    } catch (err) {
      return { ok: false, message: `probe failed: ${(err as Error).message}` };
    }
  }
}

/** The words of a check's command line, or why it has none (an empty line, an open quote). */
function commandWords(command: string): string[] | string {
  try {
    const words = splitCommand(command);
    return words.length > 0 ? words : 'is empty';
  } catch (err) {
    return (err as Error).message;
  }
}

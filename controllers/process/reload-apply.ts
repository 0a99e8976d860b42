import type { Clock } from '../../reconciler/clock.js';
import type { EventSink } from '../../state/events/types.js';
import type { ObservedProgram } from '../../state/observed.js';
import type { ProgramConfig } from '../../state/program.js';
import { reloadTimeoutMs, type ReloadView } from '../../state/reload.js';
import { effectiveCheck } from '../health/plan.js';
import type { ExitInfo, OsPort } from '../os/port.js';
import type { Effect, PlanInput } from './plan.js';
import type { Overlap, ProcState } from './proc-state.js';
import { buildSpawnSpec, type SpawnContext } from './spawn-spec.js';

/** The reload inputs of the planner: the successor's bound (from the health check) and its verdict. */
export function reloadInputs(config: ProgramConfig | undefined, state: ProcState, o: ObservedProgram): Pick<PlanInput, 'reloadTimeoutMs' | 'successor'> {
  const check = config && !config.cron ? effectiveCheck(config.health_check) : null;
  const successor = state.overlap?.phase === 'successor' ? state.overlap.proc.pid : null;
  // Only a verdict about this very successor counts (the health controller names the pid).
  const verdict = successor !== null && o.successor_health?.pid === successor ? o.successor_health : null;
  return {
    reloadTimeoutMs: check ? reloadTimeoutMs(check) : null,
    successor: verdict ? { healthy: verdict.healthy, last: verdict.last?.message ?? null } : null,
  };
}

/** The second process as views show it (api: state.reload). */
export function reloadView(o: Overlap | null): ReloadView | null {
  if (!o || o.proc.pid <= 0) return null;
  return { phase: o.phase, pid: o.proc.pid, started_at: o.proc.startedAt, deadline: o.deadline, timeout_ms: o.timeoutMs };
}

export interface ReloadApplyDeps {
  id: string;
  os: OsPort;
  clock: Clock;
  events: EventSink;
  spawnContext: SpawnContext;
  get(): ProcState;
  set(next: ProcState): void;
  onExit(pid: number, exit: ExitInfo): void;
}

/**
 * Starts a reload's successor beside the live process, with the program's own spawn spec (same
 * environment, log files, identity). Returns true when the key must be reconciled again at once:
 * a spawn that failed is recorded as the successor's exit, and the planner fails the reload.
 */
export async function spawnSuccessor(deps: ReloadApplyDeps, input: PlanInput, effect: Extract<Effect, { kind: 'spawn_successor' }>): Promise<boolean> {
  const config = input.config!;
  const base = { phase: 'successor' as const, deadline: effect.deadline, timeoutMs: effect.timeoutMs, killed: false };
  try {
    const spec = buildSpawnSpec(deps.id, config, deps.spawnContext, deps.os);
    const handle = await deps.os.spawn(spec, (exit) => deps.onExit(handle.pid, exit));
    const proc = { pid: handle.pid, startTime: handle.startTime, startedAt: deps.clock.now(), stopsecs: config.stopsecs, adopted: false };
    deps.set({ ...deps.get(), overlap: { ...base, proc, exit: null } });
    const old = deps.get().proc?.pid;
    const waits = Math.round(effect.timeoutMs / 1000);
    deps.events.emit({ event: 'reload_started', program_id: deps.id, program_name: config.name, msg: `started pid ${handle.pid} beside pid ${old}; it takes over once Healthy (at most ${waits} s)` });
    return false;
  } catch (err) {
    const proc = { pid: 0, startTime: 0, startedAt: deps.clock.now(), stopsecs: config.stopsecs, adopted: false };
    deps.set({ ...deps.get(), overlap: { ...base, proc, exit: { code: null, signal: null, error: (err as Error).message } } });
    return true;
  }
}

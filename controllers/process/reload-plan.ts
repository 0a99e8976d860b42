import type { EventInput } from '../../state/events/types.js';
import type { ReloadOutcome } from '../../state/reload.js';
import { describeExit } from './describe-exit.js';
import type { Effect, PlanInput } from './plan.js';
import type { ProcState } from './proc-state.js';

/** What the reload planner decided: the state to continue with, and when to look again. */
export interface OverlapStep {
  state: ProcState;
  requeueAt?: number;
}

/** A reload request not acted on yet. */
export const reloadRequested = (input: PlanInput, s: ProcState): boolean => (input.intent?.reload_seq ?? 0) > s.appliedReload;

/**
 * The reload part of the process planner (docs/reload.md). Pure. It runs before the rest of the
 * plan and owns the program's second process: it starts a successor beside the live process on a
 * reload request (programs with a health check), hands over when the successor is Healthy and
 * stops the old process, or stops the successor when it exits, is judged Unhealthy, misses its
 * deadline, or the program is stopped, restarted or removed meanwhile. Programs without a health
 * check get a plain restart (plan.ts, stopReason). The old process is never touched before the
 * successor is Healthy, so the program always has a live process.
 */
export function planOverlap(input: PlanInput, s: ProcState, effects: Effect[]): OverlapStep {
  const o = s.overlap;
  if (!o) return maybeStartReload(input, s, effects);
  const { now } = input;
  // The second process is gone. A reload requested while it ran asked for a process newer than
  // this reload's successor: it starts now (one second process at a time).
  if (o.exit) return maybeStartReload(input, overlapEnded(input, s, effects), effects);
  if (o.phase !== 'successor') {
    // RETIRING | ABORTING: SIGKILL at the deadline, as any stop.
    if (!o.killed && now >= o.deadline) {
      effects.push({ kind: 'signal_overlap', signal: 'SIGKILL' });
      return { state: { ...s, overlap: { ...o, killed: true } } };
    }
    return { state: s, requeueAt: o.killed ? undefined : o.deadline };
  }
  const old = s.proc;
  const cancelled = cancelReason(input, s);
  if (cancelled) {
    // A forced stop kills the successor at once, as it does the old process.
    const force = cancelled === 'stop' && input.intent?.force === true;
    return { state: abort(input, s, effects, `cancelled by ${cancelled}`, oldFate(s, cancelled), force) };
  }
  if (!old || s.exit) {
    // The old process ended on its own during the reload: the successor is the program's process now.
    if (old && s.exit) effects.push(event(input, { event: 'process_exit', exit_code: s.exit.code, signal: s.exit.signal, msg: `pid ${old.pid}: ${describeExit(s.exit, 'exit', old.adopted)} (during a reload)` }));
    return { state: promote(input, s, effects, `the old process ended during the reload; pid ${o.proc.pid} took over before its first Healthy verdict`) };
  }
  // Nothing judges the successor any more: fail now rather than at the deadline, as if it had timed out.
  if (input.reloadTimeoutMs === null) return { state: abort(input, s, effects, `health_check was disabled or removed during the reload, so nothing can judge pid ${o.proc.pid}`) };
  // A check changed during the reload (a longer start_period, a shorter interval): its bound
  // counts from the successor's start, as if it had been in force then.
  const bound = input.reloadTimeoutMs === o.timeoutMs ? o : { ...o, deadline: o.deadline - o.timeoutMs + input.reloadTimeoutMs, timeoutMs: input.reloadTimeoutMs };
  if (bound !== o) s = { ...s, overlap: bound };
  const verdict = input.successor;
  if (verdict?.healthy === true) {
    // SUCCESSOR -> program's process; old process -> RETIRING (SIGTERM, SIGKILL after its stopsecs).
    const retiring = { phase: 'retiring' as const, proc: old, exit: null, deadline: now + old.stopsecs * 1000, timeoutMs: bound.timeoutMs, killed: false };
    const next = promote(input, s, effects, `pid ${o.proc.pid} is Healthy and took over from pid ${old.pid}`);
    effects.push({ kind: 'signal_overlap', signal: 'SIGTERM' });
    return { state: { ...next, overlap: retiring }, requeueAt: retiring.deadline };
  }
  if (verdict?.healthy === false) return { state: abort(input, s, effects, `pid ${o.proc.pid} is Unhealthy${lastProbe(input)}`) };
  if (now >= bound.deadline) return { state: abort(input, s, effects, `pid ${o.proc.pid} was not Healthy within ${Math.round(bound.timeoutMs / 1000)} s${lastProbe(input)}`) };
  return { state: s, requeueAt: bound.deadline };
}

/** A reload request for a live, settled program with a health check: start the successor. */
function maybeStartReload(input: PlanInput, s: ProcState, effects: Effect[]): OverlapStep {
  const { config, intent, now } = input;
  if (!reloadRequested(input, s) || input.reloadTimeoutMs === null || !config || !intent) return { state: s };
  // Not now: no process (plan.ts starts one), one going away, or a stop or restart that comes
  // first (a failing health check's restart request too: plan.ts stops the process and answers the reload).
  if (!s.proc || s.exit || s.stopping || s.proc.pid <= 0 || cancelReason(input, s) || input.restartRequest) return { state: s };
  const deadline = now + input.reloadTimeoutMs;
  effects.push({ kind: 'spawn_successor', deadline, timeoutMs: input.reloadTimeoutMs });
  return { state: { ...s, appliedReload: intent.reload_seq ?? 0 }, requeueAt: deadline };
}

/** Why a pending successor must go: the program is going down or restarted. */
function cancelReason(input: PlanInput, s: ProcState): string | null {
  if (!input.config || !input.intent) return 'remove';
  if (input.shutdown) return 'shutdown';
  if (input.run === 'stopped') return 'stop';
  if (input.intent.restart_seq > s.appliedRestart) return 'restart';
  return null;
}

function promote(input: PlanInput, s: ProcState, effects: Effect[], msg: string): ProcState {
  const o = s.overlap!;
  effects.push({ kind: 'promote' }, event(input, { event: 'reload_succeeded', msg }));
  // A stop of the old process (one that ended while stopped) is not the new process's.
  return { ...s, proc: o.proc, exit: null, stopping: null, overlap: null, status: 'Running', lastReload: outcome(input, s, 'reloaded', msg) };
}

/**
 * What becomes of the old process when a reload ends without a hand-over: it keeps running, or,
 * when the reload was cancelled, the stop, removal or shutdown ends it too and a restart replaces it.
 */
function oldFate(s: ProcState, cancelled: string | null = null): string {
  if (!s.proc || s.exit) return '';
  return `; pid ${s.proc.pid} ${cancelled === null ? 'keeps running' : cancelled === 'restart' ? 'is restarted' : 'stops too'}`;
}

/**
 * SUCCESSOR -> ABORTING: stop it (SIGTERM, SIGKILL after stopsecs; SIGKILL at once when
 * `force`). `old` says what becomes of the old process; by default it keeps running.
 */
function abort(input: PlanInput, s: ProcState, effects: Effect[], why: string, old = oldFate(s), force = false): ProcState {
  const o = s.overlap!;
  const msg = `reload failed: ${why}; stopping pid ${o.proc.pid}${old}`;
  effects.push({ kind: 'signal_overlap', signal: force ? 'SIGKILL' : 'SIGTERM' }, event(input, { event: 'reload_failed', msg }));
  const deadline = input.now + (input.config?.stopsecs ?? o.proc.stopsecs) * 1000;
  return { ...s, overlap: { ...o, phase: 'aborting', deadline, killed: force }, lastReload: outcome(input, s, 'failed', msg) };
}

/** The second process ended: a successor that died (or never started) fails the reload. */
function overlapEnded(input: PlanInput, s: ProcState, effects: Effect[]): ProcState {
  const o = s.overlap!;
  const exit = o.exit!;
  const next: ProcState = { ...s, overlap: null };
  if (o.phase === 'successor') {
    // Killed before the planner saw the cancellation (svc rm --force signals every process of the program).
    const cancelled = cancelReason(input, s);
    const keeps = oldFate(s, cancelled);
    const how = describeExit(exit, cancelled ? cancelled : 'crash', false);
    const why = exit.error
      ? `the new process could not start: ${exit.error}`
      : cancelled ? `cancelled by ${cancelled}; new pid ${o.proc.pid} ${how}` : `new pid ${o.proc.pid} ended before it was Healthy: ${how}`;
    const msg = `reload failed: ${why}${keeps}`;
    effects.push(event(input, { event: 'reload_failed', exit_code: exit.code, signal: exit.signal, msg }));
    return { ...next, lastReload: outcome(input, s, 'failed', msg) };
  }
  // The old process after a hand-over, or a failed reload's new process (one that ignored
  // SIGTERM and was killed too): each end is in the history, as any process's.
  const why = o.phase === 'retiring' ? 'reload' : 'aborted';
  effects.push(event(input, { event: 'process_exit', exit_code: exit.code, signal: exit.signal, msg: `pid ${o.proc.pid} ${describeExit(exit, why, o.proc.adopted)}` }));
  return next;
}

function outcome(input: PlanInput, s: ProcState, result: ReloadOutcome['result'], msg: string): ReloadOutcome {
  return { seq: s.appliedReload, result, msg, at: input.now };
}

const lastProbe = (input: PlanInput): string => (input.successor?.last ? ` (last probe: ${input.successor.last})` : '');

function event(input: PlanInput, e: EventInput): Effect {
  return { kind: 'event', event: { program_id: input.id, program_name: input.config?.name ?? null, ...e } };
}

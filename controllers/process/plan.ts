import type { EventInput } from '../../state/events/types.js';
import type { LastExit, RestartRequest } from '../../state/observed.js';
import type { EffectiveConfig, Intent } from '../../state/program.js';
import type { SignalName } from '../os/port.js';
import { backoffDelayMs } from './backoff.js';
import { describeExit } from './describe-exit.js';
import { PLANNED_STOPS, type ProcState, type StopReason } from './proc-state.js';

export interface PlanInput {
  id: string;
  /** The desired config, or undefined when the program was removed. */
  config: EffectiveConfig | undefined;
  intent: Intent | undefined;
  state: ProcState;
  now: number;
  /** In [0, 1): backoff jitter. */
  random: number;
  /** Null when the program may start now; otherwise what it waits for (depends_on). */
  blockedBy?: string | null;
  /** Restart requests published by other controllers (observed state), by requester. */
  restartRequests?: Record<string, RestartRequest>;
}

export type Effect =
  | { kind: 'spawn' }
  | { kind: 'post_stop'; exit: LastExit }
  | { kind: 'signal'; signal: SignalName }
  | { kind: 'event'; event: EventInput }
  | { kind: 'forget' };

export interface Plan {
  next: ProcState;
  effects: Effect[];
  /** Reconcile again at this time (Unix ms). */
  requeueAt?: number;
}

/**
 * Decides what the process controller does for one program. Pure: no I/O, no clock reads.
 * First a pending exit is judged (restart policy), then the live state is compared with intent.
 */
export function planProcess(input: PlanInput): Plan {
  const effects: Effect[] = [];
  let s = input.state;
  if (s.proc && s.exit) s = judgeExit(input, s, effects);
  const plan = s.proc ? planAlive(input, s, effects) : planIdle(input, s, effects);
  return plan;
}

/** Applies the restart policy to a process that just ended. */
function judgeExit(input: PlanInput, s: ProcState, effects: Effect[]): ProcState {
  const { config, intent, now } = input;
  const proc = s.proc!;
  const exit = s.exit!;
  const durationMs = Math.max(0, now - proc.startedAt);
  const stoppedFor = s.stopping?.reason;
  const planned = stoppedFor && PLANNED_STOPS.has(stoppedFor) ? stoppedFor : undefined;
  const lastExit: LastExit = {
    exit_code: exit.code,
    signal: exit.signal,
    at: now,
    duration_ms: durationMs,
    reason: exit.error ? 'spawn_failed' : (stoppedFor ?? (isExpected(config, exit.code) ? 'exit' : 'crash')),
    msg: '',
  };
  lastExit.msg = describeExit(exit, lastExit.reason, proc.adopted);
  const next: ProcState = { ...s, proc: null, exit: null, stopping: null, lastExit, nextRetryAt: null, healthRestartPid: null };
  effects.push(event(input, { event: 'process_exit', exit_code: exit.code, signal: exit.signal, msg: lastExit.msg }));
  if (config?.hooks?.post_stop && !exit.error) effects.push({ kind: 'post_stop', exit: lastExit });
  if (planned || !config || !intent || intent.run === 'stopped' || s.shutdown) return { ...next, status: 'Stopped' };

  // RUNNING -> (stable run resets the counter) -> EXITED | FATAL | BACKOFF
  const retries = durationMs >= config.startsecs * 1000 ? 0 : s.retries;
  if (stoppedFor !== 'health' && !wantsRestart(config, exit.code, exit.error)) {
    return { ...next, retries, status: 'Exited' };
  }
  if (config.retry_limit !== undefined && retries >= config.retry_limit) {
    const msg = `${exit.error ? `spawn failed: ${exit.error}; ` : ''}gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'} (retry_limit ${config.retry_limit})`;
    effects.push(event(input, { event: 'process_fatal', retry_count: retries, exit_code: exit.code, signal: exit.signal, msg }));
    return { ...next, retries, status: 'Fatal' };
  }
  const retry = retries + 1;
  const delay = backoffDelayMs(config, retry, input.random);
  const limit = config.retry_limit === undefined ? '' : `/${config.retry_limit}`;
  const cause = exit.error ? `spawn failed: ${exit.error}; ` : '';
  effects.push(
    event(input, { event: 'process_backoff', retry_count: retry, exit_code: exit.code, signal: exit.signal, msg: `${cause}retry ${retry}${limit} in ${delay} ms` }),
  );
  return { ...next, retries: retry, restarts: s.restarts + 1, status: 'Backoff', nextRetryAt: now + delay };
}

function planAlive(input: PlanInput, s: ProcState, effects: Effect[]): Plan {
  const { config, intent, now } = input;
  const proc = s.proc!;
  if (s.stopping) {
    // STOPPING: escalate to SIGKILL at the deadline, or at once on a forced stop.
    const forceNow = s.stopping.reason === 'stop' && intent?.force === true;
    if (!s.stopping.killed && (now >= s.stopping.deadline || forceNow)) {
      effects.push({ kind: 'signal', signal: 'SIGKILL' });
      return { next: { ...s, stopping: { ...s.stopping, killed: true } }, effects };
    }
    return { next: s, effects, requeueAt: s.stopping.killed ? undefined : s.stopping.deadline };
  }
  const reason = stopReason(input, s);
  if (reason) {
    const force = reason === 'stop' && intent?.force === true;
    const stopsecs = config?.stopsecs ?? proc.stopsecs;
    effects.push({ kind: 'signal', signal: force ? 'SIGKILL' : 'SIGTERM' });
    const deadline = now + stopsecs * 1000;
    const next: ProcState = { ...s, status: 'Stopping', stopping: { reason, deadline, killed: force } };
    if (reason === 'restart') next.appliedRestart = intent!.restart_seq;
    return { next, effects, requeueAt: force ? undefined : deadline };
  }
  // RUNNING: a start request for a live program is already satisfied.
  const next: ProcState = { ...s, appliedStart: intent?.start_seq ?? s.appliedStart };
  if (s.retries > 0 && config) {
    const stableAt = proc.startedAt + config.startsecs * 1000;
    if (now >= stableAt) return { next: { ...next, retries: 0 }, effects };
    return { next, effects, requeueAt: stableAt };
  }
  return { next, effects };
}

function stopReason(input: PlanInput, s: ProcState): StopReason | null {
  const { config, intent } = input;
  if (!config || !intent) return 'remove';
  if (s.shutdown) return 'shutdown';
  if (intent.run === 'stopped') return 'stop';
  if (intent.restart_seq > s.appliedRestart) return 'restart';
  // A planned request for exactly this process (e.g. OTA after a binary swap) is a user-like restart.
  const pid = s.proc?.pid;
  if (pid && Object.values(input.restartRequests ?? {}).some((r) => r.planned && r.pid === pid)) return 'restart';
  if (s.healthRestartPid !== null && s.healthRestartPid === s.proc?.pid) return 'health';
  return null;
}

function planIdle(input: PlanInput, s: ProcState, effects: Effect[]): Plan {
  const { config, intent, now } = input;
  if (!config || !intent) {
    effects.push({ kind: 'forget' });
    return { next: s, effects };
  }
  if (intent.run === 'stopped' || s.shutdown) {
    // A stop cancels a pending retry or a wait for dependencies.
    if (s.status === 'Backoff' || s.status === 'Starting') {
      return { next: { ...s, status: 'Stopped', nextRetryAt: null, retries: 0, waiting: null }, effects };
    }
    return { next: s, effects };
  }
  const requested = intent.start_seq > s.appliedStart || intent.restart_seq > s.appliedRestart;
  const due = s.status === 'Stopped' || s.status === 'Starting' || (s.status === 'Backoff' && now >= (s.nextRetryAt ?? 0));
  if (!requested && !due) {
    return { next: s, effects, requeueAt: s.status === 'Backoff' ? (s.nextRetryAt ?? undefined) : undefined };
  }
  if (input.blockedBy) {
    return { next: { ...s, status: 'Starting', waiting: input.blockedBy }, effects };
  }
  // STOPPED | EXITED | FATAL (on request) | BACKOFF (when due) -> spawn
  const next: ProcState = {
    ...s,
    status: 'Starting',
    waiting: null,
    nextRetryAt: null,
    retries: requested ? 0 : s.retries,
    appliedStart: intent.start_seq,
    appliedRestart: intent.restart_seq,
  };
  effects.push({ kind: 'spawn' });
  // With retries pending, look again once the new run would count as stable (startsecs).
  return { next, effects, requeueAt: next.retries > 0 ? now + config.startsecs * 1000 : undefined };
}

function isExpected(config: EffectiveConfig | undefined, code: number | null): boolean {
  return code !== null && (config?.exitcodes ?? [0]).includes(code);
}

function wantsRestart(config: EffectiveConfig, code: number | null, error: string | undefined): boolean {
  if (config.autorestart === 'true') return true;
  if (config.autorestart === 'false') return false;
  return error !== undefined || !isExpected(config, code);
}

function event(input: PlanInput, e: EventInput): Effect {
  return { kind: 'event', event: { program_id: input.id, program_name: input.config?.name ?? null, ...e } };
}

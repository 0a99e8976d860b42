import { CLOCK_STEP_TOLERANCE_MS } from '../../reconciler/clock.js';
import type { EventInput } from '../../state/events/types.js';
import type { LastExit, RestartRequest } from '../../state/observed.js';
import type { EffectiveConfig, Intent } from '../../state/program.js';
import type { SignalName } from '../os/port.js';
import { backoffDelayMs, restartPacedAt } from './backoff.js';
import { isPermanentSpawnError } from './permanent-spawn.js';
import { describeExit } from './describe-exit.js';
import { PLANNED_STOPS, type ProcState, type StopReason } from './proc-state.js';
import { planOverlap, reloadRequested } from './reload-plan.js';
import { NO_HEALTH_CHECK_NOTE } from '../../state/reload.js';

export interface PlanInput {
  id: string;
  /** The desired config, or undefined when the program was removed (or belongs to cron now). */
  config: EffectiveConfig | undefined;
  intent: Intent | undefined;
  /** The run intent in force (state/boot.ts: boot-time rules applied). */
  run: 'running' | 'stopped';
  state: ProcState;
  now: number;
  /** In [0, 1): backoff jitter. */
  random: number;
  /** Start gate: null when the program may start; otherwise what it waits for (its artifact, depends_on). */
  blockedBy: string | null;
  /** Stop gate: null when the program may stop; otherwise what must stop first (stop order). */
  stopBlockedBy: string | null;
  /** Daemon shutdown has begun (a condition): stop, without touching stored intent. */
  shutdown: boolean;
  /** A restart request (health, OTA) that targets the live process, if any. */
  restartRequest: RestartRequest | null;
  /** When the daemon's last quick restart was scheduled (Unix ms; -Infinity for none): quick restarts are paced daemon-wide. */
  lastQuickRestartAt: number;
  /** How long a reload's successor may take to be Healthy (state/reload.ts); null without an enabled health check (a reload is then a plain restart). */
  reloadTimeoutMs: number | null;
  /** The health verdict of the reload's successor process (null: none yet), and its last probe message. */
  successor: { healthy: boolean | null; last: string | null } | null;
}

export type Effect =
  | { kind: 'spawn' }
  | { kind: 'pre_start'; token: number }
  | { kind: 'post_stop'; token: number; exit: LastExit }
  | { kind: 'signal'; signal: SignalName }
  | { kind: 'event'; event: EventInput }
  | { kind: 'forget' }
  /** A quick restart was scheduled at `at`: the daemon-wide pace starts from it. */
  | { kind: 'paced'; at: number }
  /** Reload (reload-plan.ts): start the successor beside the live process; signal the second process; make the successor the program's process. */
  | { kind: 'spawn_successor'; deadline: number; timeoutMs: number }
  | { kind: 'signal_overlap'; signal: SignalName }
  | { kind: 'promote' };

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
  // A reload's second process first: a successor may take over from a process that just ended.
  const overlap = planOverlap(input, input.state, effects);
  let s = overlap.state;
  if (s.proc && s.exit) s = judgeExit(input, s, effects);
  const plan = s.proc ? planAlive(input, s, effects) : planIdle(input, s, effects);
  return { ...plan, requeueAt: earliest(plan.requeueAt, overlap.requeueAt) };
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** Whether the program should have no process: removed, stopped by intent, or daemon shutdown. */
function goingDown(input: PlanInput): boolean {
  return !input.config || !input.intent || input.run === 'stopped' || input.shutdown;
}

/** Applies the restart policy to a process that just ended (or never started). */
function judgeExit(input: PlanInput, s: ProcState, effects: Effect[]): ProcState {
  const { config, now } = input;
  const proc = s.proc!;
  const exit = s.exit!;
  // An exit kept while svcd was down ended then, not when the next svcd read it.
  const endedAt = Math.min(now, exit.endedAt ?? now);
  const durationMs = Math.max(0, endedAt - proc.startedAt);
  const stoppedFor = s.stopping?.reason;
  const planned = stoppedFor && PLANNED_STOPS.has(stoppedFor) ? stoppedFor : undefined;
  const lastExit: LastExit = {
    exit_code: exit.code,
    signal: exit.signal,
    at: endedAt,
    duration_ms: durationMs,
    reason: exit.error ? 'spawn_failed' : (stoppedFor ?? (isExpected(config, exit.code) ? 'exit' : 'crash')),
    msg: '',
  };
  lastExit.msg = describeExit(exit, lastExit.reason, proc.adopted);
  const next: ProcState = { ...s, proc: null, exit: null, stopping: null, lastExit, nextRetryAt: null, waiting: null };
  effects.push(event(input, { event: 'process_exit', exit_code: exit.code, signal: exit.signal, msg: lastExit.msg }));
  if (config?.hooks?.post_stop && !exit.error) {
    const token = s.hookToken + 1;
    next.hookToken = token;
    next.postStop = { token, outcome: null };
    effects.push({ kind: 'post_stop', token, exit: lastExit });
  }
  if (planned || goingDown(input)) return { ...next, status: 'Stopped' };

  // A spawn that cannot succeed until someone fixes it (command not found...): Fatal at once.
  if (isPermanentSpawnError(exit.error)) {
    const msg = `spawn failed: ${exit.error}; not retried: it cannot succeed until the command or cwd is fixed (then: svc start ${config!.name})`;
    effects.push(event(input, { event: 'process_fatal', retry_count: s.retries, exit_code: exit.code, signal: exit.signal, msg }));
    return { ...next, status: 'Fatal' };
  }

  // RUNNING -> (stable run resets the counter) -> EXITED | FATAL | BACKOFF. A process that never
  // started had no run at all, even when startsecs = 0 calls any run stable.
  const retries = !exit.error && durationMs >= config!.startsecs * 1000 ? 0 : s.retries;
  if (stoppedFor !== 'health' && !wantsRestart(config!, exit.code, exit.error)) {
    return { ...next, retries, status: 'Exited' };
  }
  if (config!.retry_limit !== undefined && retries >= config!.retry_limit) {
    const msg = `${exit.error ? `spawn failed: ${exit.error}; ` : ''}gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'} (retry_limit ${config!.retry_limit})`;
    effects.push(event(input, { event: 'process_fatal', retry_count: retries, exit_code: exit.code, signal: exit.signal, msg }));
    return { ...next, retries, status: 'Fatal' };
  }
  const retry = retries + 1;
  const backoff = backoffDelayMs(config!, retry, input.random);
  const paced = restartPacedAt(now + backoff, backoff, input.lastQuickRestartAt);
  if (paced.quick) effects.push({ kind: 'paced', at: paced.at });
  const delay = paced.at - now;
  const limit = config!.retry_limit === undefined ? '' : `/${config!.retry_limit}`;
  const cause = exit.error ? `spawn failed: ${exit.error}; ` : '';
  effects.push(
    event(input, { event: 'process_backoff', retry_count: retry, exit_code: exit.code, signal: exit.signal, msg: `${cause}retry ${retry}${limit} in ${delay} ms` }),
  );
  return { ...next, retries: retry, restarts: s.restarts + 1, status: 'Backoff', nextRetryAt: paced.at };
}

function planAlive(input: PlanInput, s: ProcState, effects: Effect[]): Plan {
  const { config, intent, now } = input;
  const proc = s.proc!;
  if (s.stopping) {
    // A stop or removal asked while a restart is stopping the process takes it over: its exit is
    // theirs (nothing starts again), and a forced stop need not wait for the restart's deadline.
    const over: StopReason | null = !config || !intent ? 'remove' : input.run === 'stopped' && !input.shutdown ? 'stop' : null;
    const takenOver = over !== null && (s.stopping.reason === 'restart' || s.stopping.reason === 'health');
    // A deadline more than stopsecs ahead was set before the wall clock was stepped back: it is
    // brought to stopsecs from now (and kept), so the SIGKILL is not late by the step.
    const latest = now + (config?.stopsecs ?? proc.stopsecs) * 1000;
    const pulledIn = s.stopping.deadline > latest;
    const stopping = takenOver || pulledIn ? { ...s.stopping, reason: takenOver ? over : s.stopping.reason, deadline: Math.min(s.stopping.deadline, latest) } : s.stopping;
    const current = stopping === s.stopping ? s : { ...s, stopping };
    // STOPPING: escalate to SIGKILL at the deadline, or at once on a forced stop.
    const forceNow = stopping.reason === 'stop' && intent?.force === true;
    if (!stopping.killed && (now >= stopping.deadline || forceNow)) {
      effects.push({ kind: 'signal', signal: 'SIGKILL' });
      return { next: { ...current, stopping: { ...stopping, killed: true } }, effects };
    }
    return { next: current, effects, requeueAt: stopping.killed ? undefined : stopping.deadline };
  }
  const reason = stopReason(input, s);
  if (reason && (reason === 'stop' || reason === 'shutdown') && input.stopBlockedBy) {
    // RUNNING, going down: programs ranked before it (dependants, higher priority) stop first.
    return { next: { ...s, waiting: input.stopBlockedBy }, effects };
  }
  if (reason) {
    const force = reason === 'stop' && intent?.force === true;
    const stopsecs = config?.stopsecs ?? proc.stopsecs;
    effects.push({ kind: 'signal', signal: force ? 'SIGKILL' : 'SIGTERM' });
    const deadline = now + stopsecs * 1000;
    const next: ProcState = { ...s, status: 'Stopping', waiting: null, stopping: { reason, deadline, killed: force } };
    if (reason === 'restart' || reason === 'health') {
      if (reason === 'restart') next.appliedRestart = intent!.restart_seq;
      // A restart answers a pending reload too: it replaces the process, with downtime.
      const first = reason === 'restart' ? 'a restart request came first' : 'its failing health check restarted it first';
      const msg = input.reloadTimeoutMs === null ? NO_HEALTH_CHECK_NOTE : `restarted, with downtime: ${first}`;
      if (reloadRequested(input, s)) next.lastReload = { seq: intent!.reload_seq ?? 0, result: 'restarted', msg, at: now };
      next.appliedReload = intent!.reload_seq ?? 0;
    }
    return { next, effects, requeueAt: force ? undefined : deadline };
  }
  // RUNNING: a start request for a live program is already satisfied.
  const next: ProcState = { ...s, waiting: null, appliedStart: intent?.start_seq ?? s.appliedStart };
  if (s.retries > 0 && config) {
    const stableAt = proc.startedAt + config.startsecs * 1000;
    if (now >= stableAt) return { next: { ...next, retries: 0 }, effects };
    return { next, effects, requeueAt: stableAt };
  }
  return { next, effects };
}

/**
 * When a Backoff retry is due. An exit recorded ahead of now means the wall clock was stepped
 * back since: the retry keeps the wait it was given at the exit instead of growing by the step
 * (kept as the new due time; a pass before it comes may retry a little early, never late).
 */
function retryTime(s: ProcState, now: number): number {
  const at = s.nextRetryAt ?? 0;
  const exitAt = s.lastExit?.at;
  return exitAt !== undefined && exitAt > now + CLOCK_STEP_TOLERANCE_MS ? Math.min(at, now + Math.max(0, at - exitAt)) : at;
}

function stopReason(input: PlanInput, s: ProcState): StopReason | null {
  const { config, intent } = input;
  if (!config || !intent) return 'remove';
  if (input.shutdown) return 'shutdown';
  if (input.run === 'stopped') return 'stop';
  if (intent.restart_seq > s.appliedRestart) return 'restart';
  // A reload without an enabled health check is a plain restart (docs/reload.md).
  if (reloadRequested(input, s) && input.reloadTimeoutMs === null) return 'restart';
  // A successor is about to replace the process: the reload's outcome decides, not the request.
  if (input.restartRequest && s.overlap?.phase !== 'successor') return input.restartRequest.planned ? 'restart' : 'health';
  return null;
}

function planIdle(input: PlanInput, s: ProcState, effects: Effect[]): Plan {
  const { config, intent, now } = input;
  if (!config || !intent) {
    if (s.overlap) return { next: s, effects }; // a reload's second process is still being stopped; its exit wakes the key
    effects.push({ kind: 'forget' });
    return { next: s, effects };
  }
  if (goingDown(input)) {
    // A stop cancels a pending retry, a wait for dependencies and a pre_start in progress.
    if (s.status === 'Backoff' || s.status === 'Starting') {
      // Recorded for a stop request, so a history that ends in a process_backoff (or a start
      // still waiting) says the retry will not come; a removal or shutdown says so itself.
      if (input.run === 'stopped' && !input.shutdown && config) effects.push(event(input, { event: 'start_cancelled', msg: cancelledStart(config, s, now) }));
      return { next: { ...s, status: 'Stopped', nextRetryAt: null, retries: 0, waiting: null, preStart: null }, effects };
    }
    return { next: s, effects };
  }
  const requested = intent.start_seq > s.appliedStart || intent.restart_seq > s.appliedRestart || reloadRequested(input, s);
  const retryAt = retryTime(s, now);
  const due = s.status === 'Stopped' || s.status === 'Starting' || (s.status === 'Backoff' && now >= retryAt);
  if (!requested && !due) {
    const next = s.status === 'Backoff' && retryAt !== s.nextRetryAt ? { ...s, nextRetryAt: retryAt } : s;
    return { next, effects, requeueAt: s.status === 'Backoff' ? retryAt : undefined };
  }
  if (s.postStop && !s.postStop.outcome) {
    // The previous run's post_stop hook is still running; its end wakes this key.
    return { next: { ...s, waiting: 'post_stop hook running' }, effects };
  }
  if (input.blockedBy) {
    return { next: { ...s, status: 'Starting', waiting: input.blockedBy }, effects };
  }
  // STOPPED | EXITED | FATAL (on request) | BACKOFF (when due) -> STARTING
  const starting: ProcState = {
    ...s,
    status: 'Starting',
    waiting: null,
    nextRetryAt: null,
    postStop: null,
    retries: requested ? 0 : s.retries,
    appliedStart: intent.start_seq,
    appliedRestart: intent.restart_seq,
    appliedReload: intent.reload_seq ?? 0,
    // A reload of a program with no process is a start.
    lastReload: reloadRequested(input, s) ? { seq: intent.reload_seq ?? 0, result: 'started', msg: 'was not running: started', at: now } : s.lastReload,
  };
  if (config.hooks?.pre_start) {
    if (!s.preStart || requested) {
      const token = s.hookToken + 1;
      effects.push({ kind: 'pre_start', token });
      return { next: { ...starting, hookToken: token, preStart: { token, outcome: null }, waiting: 'pre_start hook running' }, effects };
    }
    if (!s.preStart.outcome) return { next: { ...starting, waiting: 'pre_start hook running' }, effects };
    if (s.preStart.outcome.error) {
      // A failed pre_start is judged like a process that could not start: the restart policy decides.
      const failed: ProcState = { ...starting, preStart: null, proc: { pid: 0, startTime: 0, startedAt: now, stopsecs: config.stopsecs, adopted: false }, exit: { code: null, signal: null, error: s.preStart.outcome.error } };
      return planIdle(input, judgeExit(input, failed, effects), effects);
    }
  }
  effects.push({ kind: 'spawn' });
  const next = { ...starting, preStart: null };
  // With retries pending, look again once the new run would count as stable (startsecs).
  return { next, effects, requeueAt: next.retries > 0 ? now + config.startsecs * 1000 : undefined };
}

/** What a stop request cancelled: a Backoff retry, or a start still waiting (dependencies, a hook). */
function cancelledStart(config: EffectiveConfig, s: ProcState, now: number): string {
  if (s.status === 'Backoff') {
    const limit = config.retry_limit === undefined ? '' : `/${config.retry_limit}`;
    const due = s.nextRetryAt === null ? '' : `, due in ${Math.max(0, Math.ceil((s.nextRetryAt - now) / 1000))} s,`;
    return `stopped on request in Backoff: retry ${s.retries}${limit}${due} cancelled`;
  }
  return `stopped on request before its process started${s.waiting ? ` (${s.waiting})` : ''}: start cancelled`;
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

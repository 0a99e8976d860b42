import type { HealthView, LastExit } from './observed.js';
import type { HealthCheck } from './program.js';

/** What a wait reads of a program in the list (api/wire.ts ProgramSummary has these). */
export interface ProgramSummary {
  id: string;
  name: string;
  status: string;
  pid: number | null;
  removed?: true;
  /**
   * svcd's own source only (not on the wire): a start or restart asked of the program (a stack
   * update's restart) that its controller has not taken up yet, so its status is still the one
   * from before the request (an old process's Healthy, an old crash's Fatal). Judged as on its way.
   */
  request_pending?: true;
}

/** What a wait reads of a program's detail (api/wire.ts ProgramDetail has these). */
export interface ProgramDetail extends ProgramSummary {
  config: { cron?: string; health_check?: Pick<HealthCheck, 'enabled'> };
  state: { status: string; desired: 'running' | 'stopped'; uptime_secs: number | null; last_exit: LastExit | null; health: HealthView | null; detail: string | null };
}

/**
 * Where a wait reads programs: svcd's API for `svc wait` and `svc apply --wait` (tui/cli), or
 * svcd's own state for `PUT /api/v1/stack?wait=` (api/readiness-source.ts). One judgment for both
 * (state/ is what both sides may import).
 */
export interface ReadinessSource {
  /** null: svcd does not answer now (restarting): that look is skipped, and the wait goes on until its timeout. */
  list(): Promise<ProgramSummary[] | null>;
  /** null: the program is gone (404). */
  detail(id: string): Promise<ProgramDetail | null>;
  /** The last lines the program wrote to stderr (none when they cannot be read). */
  stderrTail(id: string): Promise<string[]>;
}

/** The clock the polls run on: the wall clock and a pause between polls, or a test's. */
export interface PollTime {
  now(): number;
  /** Waits until the next poll. */
  pause(): Promise<void>;
}

/** What went wrong with a program's start: the message, and its last lines of stderr. */
export interface StartProblem {
  message: string;
  stderr: string[];
}

/** One list request per this many ms while waiting, whatever the number of programs. */
export const READY_POLL_MS = 250;
/** Details read at once while the wait set is prepared. */
const DETAIL_CONCURRENCY = 16;
/** Lines of stderr shown with a failed start, each cut at this many characters (a log line may hold 16 MiB). */
export const STDERR_LINES = 5;
const STDERR_LINE_CHARS = 400;

/** A line of stderr as a warning shows it: cut at STDERR_LINE_CHARS. */
export function stderrLine(content: string): string {
  return content.length > STDERR_LINE_CHARS ? `${content.slice(0, STDERR_LINE_CHARS)} …` : content;
}

/** The longest wait `?wait=` and `svc wait --timeout` take (seconds). */
export const MAX_WAIT_SECS = 86_400;
/** How long `svc wait` and `svc apply --wait` wait unless told (seconds). */
export const DEFAULT_WAIT_SECS = 60;
/** How long a program without a health check must have run, unless told (seconds): as the watch after `svc add`. */
export const DEFAULT_STABLE_SECS = 1;

/** A program to wait for; `named` when the user named it (a stopped one is then a failure, not skipped). */
export interface WaitTarget {
  id: string;
  name: string;
  named: boolean;
}

export interface ReadyProgram {
  id: string;
  name: string;
  /** Healthy, Running, Scheduled or Exited. */
  status: string;
  /** How it is ready: `Healthy`, `Running for 1 s`, `Scheduled`, `exited with code 0`. */
  how: string;
  /** Seconds from the start of the wait until it was seen ready (0: it already was). */
  secs: number;
}

export interface NotReadyProgram {
  id: string;
  name: string;
  status: string;
  problem: StartProblem;
}

/** The outcome of a wait (docs/cli.md, `svc wait`). */
export interface WaitOutcome {
  ready: ReadyProgram[];
  /** Fatal, exited with an unexpected code, removed, stopped, or (after a timeout) not ready yet. */
  failed: NotReadyProgram[];
  /** Programs selected by `all`, a group or a stack file that are not meant to run (stopped on purpose, autostart = false). */
  skipped: { id: string; name: string; status: string }[];
  /** Still on their way when the wait ended because another failed (not judged). */
  pending: { id: string; name: string; status: string }[];
  timedOut: boolean;
  secs: number;
}

export interface WaitOptions {
  timeoutMs: number;
  /** A program without a health check is ready once one process has run this long (0: once Running). */
  stableMs: number;
  /** Told of each program as it is found ready (the CLI prints a line). */
  onReady?: (r: ReadyProgram) => void;
}

/** What one program needs to be ready, from its configuration and desired state. */
interface Watched {
  target: WaitTarget;
  healthChecked: boolean;
  cron: boolean;
  /** Its status at the last look (what `pending` says of it when the wait ends on a failure). */
  status: string;
  /** The pid seen Running and since when (client clock), with the uptime it already had then. */
  seen: { pid: number; at: number; uptimeMs: number } | null;
}

type Verdict = { kind: 'ready'; status: string; how: string } | { kind: 'failed'; status: string; problem: StartProblem } | { kind: 'pending' };

/**
 * Waits until every target is ready, one fails, or the timeout passes: a program with an enabled
 * health check is ready when Healthy; one without, when its process has been Running for
 * `stableMs` (a crash inside that time restarts the clock); a cron program when Scheduled; a
 * program that ended with an expected exit code (a one-shot, `Exited`) counts as done. Fatal, an
 * unexpected exit that is not restarted, and a removal fail at once; Backoff, Starting and
 * Unhealthy are waited out until the timeout. The daemon decides every status, so this is right
 * for a remote svcd too; polls use one list request, and details only to judge an ending.
 */
export async function waitReady(source: ReadinessSource, targets: WaitTarget[], options: WaitOptions, time: PollTime): Promise<WaitOutcome> {
  const began = time.now();
  const secs = () => (time.now() - began) / 1000;
  const outcome: WaitOutcome = { ready: [], failed: [], skipped: [], pending: [], timedOut: false, secs: 0 };
  const watching = new Map<string, Watched>();
  const details = await detailsOf(source, targets);
  for (const [i, target] of targets.entries()) {
    const d = details[i];
    if (!d) {
      outcome.failed.push({ id: target.id, name: target.name, status: 'Removed', problem: { message: 'removed before the wait began', stderr: [] } });
      continue;
    }
    // A cron program's schedule runs while desired is running; `svc stop` pauses it (desired stopped).
    if (d.state.desired === 'stopped') {
      if (target.named) outcome.failed.push({ id: d.id, name: d.name, status: d.state.status, problem: { message: `${d.state.status}, and nothing is starting it (svc start ${d.name})`, stderr: [] } });
      else outcome.skipped.push({ id: d.id, name: d.name, status: d.state.status });
      continue;
    }
    const healthChecked = d.config.health_check !== undefined && d.config.health_check.enabled !== false;
    const up = (d.state.status === 'Running' || d.state.status === 'Healthy') && d.pid && !d.request_pending;
    const seen = up ? { pid: d.pid!, at: time.now(), uptimeMs: (d.state.uptime_secs ?? 0) * 1000 } : null;
    watching.set(d.id, { target: { ...target, name: d.name }, healthChecked, cron: d.config.cron !== undefined, status: d.state.status, seen });
  }
  if (outcome.failed.length > 0) return finish(outcome, watching, secs());
  // Every program is judged on each list: a failure ends the wait after the look, not in it.
  const look = async (list: ProgramSummary[]) => {
    const byId = new Map(list.map((p) => [p.id, p]));
    for (const [id, w] of watching) {
      const p = byId.get(id);
      if (p) w.status = p.status;
      const verdict = await judge(source, w, p, options.stableMs, time.now());
      if (verdict.kind === 'pending') continue;
      watching.delete(id);
      if (verdict.kind === 'failed') {
        outcome.failed.push({ id, name: w.target.name, status: verdict.status, problem: verdict.problem });
        continue;
      }
      const ready = { id, name: w.target.name, status: verdict.status, how: verdict.how, secs: secs() };
      outcome.ready.push(ready);
      options.onReady?.(ready);
    }
  };
  // The details just read serve as the first look's list.
  await look(details.flatMap((d) => (d ? [d as ProgramSummary] : [])));
  for (;;) {
    if (watching.size === 0 || outcome.failed.length > 0) return finish(outcome, watching, secs());
    if (time.now() - began >= options.timeoutMs) {
      outcome.timedOut = true;
      // Each one still on its way is named with how far it got, and why it is not ready.
      for (const [id, w] of watching) {
        const d = await source.detail(id);
        outcome.failed.push({ id, name: w.target.name, status: d?.state.status ?? 'Removed', problem: d ? await notReadyYet(source, d) : { message: 'removed while waiting', stderr: [] } });
      }
      watching.clear();
      return finish(outcome, watching, secs());
    }
    await time.pause();
    // svcd not answering (a restart) tells nothing: judged again at the next look.
    const list = await source.list();
    if (list) await look(list);
  }
}

/** Those still watched when the wait ended on a failure are listed with their status at the last look, not judged. */
function finish(outcome: WaitOutcome, watching: Map<string, Watched>, secs: number): WaitOutcome {
  for (const [id, w] of watching) outcome.pending.push({ id, name: w.target.name, status: w.status });
  outcome.secs = secs;
  return outcome;
}

async function judge(source: ReadinessSource, w: Watched, p: ProgramSummary | undefined, stableMs: number, now: number): Promise<Verdict> {
  if (!p || p.removed) return { kind: 'failed', status: 'Removed', problem: { message: 'removed while waiting', stderr: [] } };
  // Its status is from before a restart svcd has not begun: neither ready nor failed yet.
  if (p.request_pending) return { kind: 'pending' };
  if (w.cron) return p.status === 'Scheduled' || p.status === 'Running' ? { kind: 'ready', status: p.status, how: p.status } : endOrPending(source, p);
  if (p.status === 'Healthy') return { kind: 'ready', status: 'Healthy', how: 'Healthy' };
  if (p.status === 'Running' && p.pid && !w.healthChecked) {
    // A new pid (restarted meanwhile) starts the stable time again.
    if (w.seen?.pid !== p.pid) w.seen = { pid: p.pid, at: now, uptimeMs: 0 };
    const ranMs = w.seen.uptimeMs + (now - w.seen.at);
    if (ranMs >= stableMs) return { kind: 'ready', status: 'Running', how: stableMs > 0 ? `Running for ${formatSecs(stableMs)}` : 'Running' };
    return { kind: 'pending' };
  }
  return endOrPending(source, p);
}

/** Fatal, Exited and a stop on purpose end the wait; the detail says how. */
async function endOrPending(source: ReadinessSource, p: ProgramSummary): Promise<Verdict> {
  if (p.status !== 'Fatal' && p.status !== 'Exited' && p.status !== 'Stopped') return { kind: 'pending' };
  const d = await source.detail(p.id);
  if (!d) return { kind: 'failed', status: 'Removed', problem: { message: 'removed while waiting', stderr: [] } };
  if (d.request_pending) return { kind: 'pending' };
  const last = d.state.last_exit;
  // A one-shot (a migration, autorestart = false) that ended as it should is done.
  if (d.state.status === 'Exited' && last?.reason === 'exit') return { kind: 'ready', status: 'Exited', how: `exited with code ${last.exit_code ?? 0}` };
  if (d.state.status === 'Stopped' && d.state.desired === 'running') return { kind: 'pending' }; // about to start
  if (d.state.status === 'Stopped') return { kind: 'failed', status: 'Stopped', problem: { message: `stopped while waiting (svc start ${d.name})`, stderr: [] } };
  if (d.state.status !== 'Fatal' && d.state.status !== 'Exited') return { kind: 'pending' }; // moved on since the list
  return { kind: 'failed', status: d.state.status, problem: await notReadyYet(source, d) };
}

/** Why a program is not ready: how its last process ended (with stderr), its health, or its status detail. */
async function notReadyYet(source: ReadinessSource, d: ProgramDetail): Promise<StartProblem> {
  const last = d.state.last_exit;
  if (d.state.status === 'Unhealthy' || (d.state.health && d.state.status === 'Running')) {
    const probe = d.state.health?.last;
    const failures = d.state.health?.failures ?? 0;
    return { message: `${d.state.status}${failures > 0 ? `, ${failures} failed probe${failures === 1 ? '' : 's'} in a row` : ', no passing probe yet'}${probe && !probe.ok ? `; last: ${probe.message}` : ''}`, stderr: [] };
  }
  if (last && last.reason !== 'stop' && last.reason !== 'restart' && (d.state.status === 'Backoff' || d.state.status === 'Fatal' || d.state.status === 'Exited')) return exitProblemOf(d, await source.stderrTail(d.id));
  return { message: `${d.state.status}${d.state.detail ? ` (${d.state.detail})` : ''}`, stderr: [] };
}

async function detailsOf(source: ReadinessSource, targets: WaitTarget[]): Promise<(ProgramDetail | null)[]> {
  const out: (ProgramDetail | null)[] = new Array<ProgramDetail | null>(targets.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      out[i] = await source.detail(targets[i].id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, targets.length) }, worker));
  return out;
}

/** How the program's last process ended, when, its status now, and its last lines of stderr. */
export function exitProblemOf(d: ProgramDetail, stderr: string[]): StartProblem {
  const last = d.state.last_exit!;
  return { message: `${last.msg}, ${lifetime(last.duration_ms)} after it started; now ${d.state.status}`, stderr };
}

/** How long a process lived: `under 1 ms` (a shell that fails at once; `0 ms` read as a fault), `40 ms`, `2.5 s`. */
function lifetime(ms: number): string {
  if (ms < 0.5) return 'under 1 ms';
  return ms < 999.5 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The outcome as JSON (`svc wait --json`, the `wait` of `PUT /api/v1/stack?wait=`): each failure's reason as `warning`, with its stderr lines. */
export function waitJson(o: WaitOutcome) {
  return {
    ok: o.failed.length === 0,
    timed_out: o.timedOut,
    secs: Number(o.secs.toFixed(3)),
    ready: o.ready.map((r) => ({ id: r.id, name: r.name, status: r.status, how: r.how, secs: Number(r.secs.toFixed(3)) })),
    failed: o.failed.map((f) => ({ id: f.id, name: f.name, status: f.status, warning: f.problem.message, ...(f.problem.stderr.length > 0 ? { stderr: f.problem.stderr } : {}) })),
    pending: o.pending,
    skipped: o.skipped,
  };
}

/** The `wait` of a stack apply's answer, and of `svc wait --json`. */
export type WaitResult = ReturnType<typeof waitJson>;

export function formatSecs(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

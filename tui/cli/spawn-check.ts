import type { ProgramDetail } from '../../api/wire.js';
import { exitProblemOf, STDERR_LINES, stderrLine, type PollTime, type ReadinessSource, type StartProblem } from '../../state/readiness.js';
import type { ApiClient } from '../client/http.js';
import { ApiError } from '../client/errors.js';
import { routes } from '../client/routes.js';

export type { PollTime, StartProblem } from '../../state/readiness.js';

/** How long `svc add` waits for the first spawn to settle before it stops looking. */
const SETTLE_MS = 3000;
/** How long a started program is watched for an exit, as supervisorctl waits its default startsecs. */
export const WATCH_MS = 1000;
const POLL_MS = 100;

/** The wall clock, with pauses of `ms` between polls. */
export function realTime(ms: number): PollTime {
  return { now: () => Date.now(), pause: () => new Promise((resolve) => setTimeout(resolve, ms)) };
}

const REAL_TIME = realTime(POLL_MS);

/**
 * After `svc add`: waits until the first start has settled (started, or no longer Starting), then
 * watches the process as `svc start` does (watchStarted). Returns why the spawn failed (command
 * not found, not executable, cwd missing...), or how the process ended when it crashed at once or
 * left to be restarted (a program that exits at once is restarted over and over), else null:
 * also when the program cannot be read any more (removed meanwhile, svcd gone), since the add
 * stands. The daemon spawns, so the check is its answer, right for a remote svcd and another
 * user too.
 */
export async function firstStartProblem(client: ApiClient, id: string, time: PollTime = REAL_TIME): Promise<StartProblem | null> {
  const until = time.now() + SETTLE_MS;
  for (;;) {
    // The program is stored: removed by someone meanwhile, or svcd not answering now (a
    // restart), is no start problem, and must not turn the add into an error.
    const d = await routes.getProgram(client, id).catch(() => null);
    if (!d) return null;
    const last = d.state.last_exit;
    if (last?.reason === 'spawn_failed') return { message: last.msg, stderr: [] };
    if (endedAtOnce(d)) return exitProblem(client, d);
    // Stopped, to be running, with no exit yet: the process controller has not had its first
    // pass (the create answers once the record is stored), so nothing has settled.
    const notYet = d.state.status === 'Starting' || (d.state.status === 'Stopped' && d.state.desired === 'running' && last === null);
    if (!notYet) return d.pid && d.state.desired === 'running' ? ((await watchStarted(client, [{ id, pid: d.pid }], time)).get(id) ?? null) : null;
    if (time.now() >= until) return null;
    await time.pause();
  }
}

/**
 * After `svc start` or `svc restart`: watches the processes the action started (`started`, by
 * pid) for WATCH_MS, with one list request per poll whatever their number, and returns how each
 * one that crashed at once (or exited and is restarted) ended, by program id. A program whose
 * process had ended before the action answered (pid null) is judged at once.
 */
export async function watchStarted(client: ApiClient, started: { id: string; pid: number | null }[], time: PollTime = REAL_TIME): Promise<Map<string, StartProblem>> {
  const problems = new Map<string, StartProblem>();
  // Those without a pid had ended before the action answered: judged now.
  for (const { id } of started.filter((s) => s.pid === null)) {
    const d = await routes.getProgram(client, id).catch(() => null);
    if (d && endedAtOnce(d)) problems.set(id, await exitProblem(client, d));
  }
  let watching = new Map(started.flatMap((s) => (s.pid === null ? [] : [[s.id, s.pid] as const])));
  const until = time.now() + WATCH_MS;
  while (watching.size > 0 && time.now() < until) {
    await time.pause();
    const next = new Map<string, number>();
    // svcd gone meanwhile (a restart): the action's own answer stands, the watch ends.
    const list = await routes.listPrograms(client).catch(() => null);
    if (!list) break;
    for (const p of list) {
      const pid = watching.get(p.id);
      if (pid === undefined) continue;
      if (p.pid === pid) next.set(p.id, pid);
      else {
        // It ended (or was stopped or removed meanwhile, which the detail says).
        const d = await routes.getProgram(client, p.id).catch(() => null);
        if (d && endedAtOnce(d)) problems.set(p.id, await exitProblem(client, d));
      }
    }
    watching = next;
  }
  return problems;
}

/**
 * A crash, or an expected exit the program is restarted after (`Exited` is a program that was
 * meant to end). A cron program's runs are meant to end: `svc start` of one runs it once.
 */
function endedAtOnce(d: ProgramDetail): boolean {
  const reason = d.state.last_exit?.reason;
  if (d.config.cron !== undefined) return false;
  return reason === 'crash' || (reason === 'exit' && d.state.status !== 'Exited');
}

/** How the program's last process ended, when, its status now, and its last lines of stderr. */
async function exitProblem(client: ApiClient, d: ProgramDetail): Promise<StartProblem> {
  return exitProblemOf(d, await stderrTail(client, d.id));
}

/** An answer of svc with `--json`, with the problem added as `warning` (and `stderr`, when there are lines). */
export function withProblem<T extends object>(answer: T, problem: StartProblem | null | undefined): T | (T & { warning: string; stderr?: string[] }) {
  return problem ? { ...answer, warning: problem.message, ...(problem.stderr.length > 0 ? { stderr: problem.stderr } : {}) } : answer;
}

/** The warning as the CLI prints it: the message, then the stderr lines indented. */
export function problemText(name: string, problem: StartProblem): string {
  const tail = problem.stderr.length > 0 ? `  its last lines of stderr (svc logs ${name}):\n${problem.stderr.map((l) => `    ${l}\n`).join('')}` : '';
  return `warning: ${name}: ${problem.message}\n${tail}`;
}

/** The last lines the program wrote to stderr; none when the logs cannot be read (a file sink, no rights). */
async function stderrTail(client: ApiClient, id: string): Promise<string[]> {
  try {
    const { logs } = await routes.logs(client, id, new URLSearchParams({ tail: String(STDERR_LINES), source: 'stderr' }));
    return logs.map((l) => stderrLine(l.content));
  } catch {
    return [];
  }
}

/** svcd's API as the source `svc wait` and `svc apply --wait` read (state/readiness.ts): a program svcd answers 404 for is gone. */
export function apiReadinessSource(client: ApiClient): ReadinessSource {
  return {
    // svcd restarting (nothing answers for a moment) is waited out until the wait's timeout.
    list: () =>
      routes.listPrograms(client).catch((err: unknown) => {
        if (err instanceof ApiError && err.kind === 'unreachable') return null;
        throw err;
      }),
    detail: (id) =>
      routes.getProgram(client, id).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    stderrTail: (id) => stderrTail(client, id),
  };
}

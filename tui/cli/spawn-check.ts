import type { ProgramDetail } from '../../api/wire.js';
import type { ApiClient } from '../client/http.js';
import { routes } from '../client/routes.js';

/** How long `svc add` waits for the first spawn to settle before it stops looking. */
const SETTLE_MS = 3000;
/** How long a started program is watched for an exit, as supervisorctl waits its default startsecs. */
export const WATCH_MS = 1000;
const POLL_MS = 100;
/** Lines of stderr shown with an early exit. */
const STDERR_LINES = 5;

/** What went wrong with a program's first start: the warning, and its last lines of stderr. */
export interface StartProblem {
  message: string;
  stderr: string[];
}

/**
 * After `svc add`: waits until the first start has settled (started, or no longer Starting), then
 * watches the process for WATCH_MS. Returns why the spawn failed (command not found, not
 * executable, cwd missing...), or how the process ended when it crashed at once or left to be
 * restarted (a program that exits at once is restarted over and over), else null. The daemon
 * spawns, so the check is its answer, right for a remote svcd and another user too.
 */
export async function firstStartProblem(client: ApiClient, id: string): Promise<StartProblem | null> {
  const until = Date.now() + SETTLE_MS;
  let watchUntil: number | null = null;
  for (;;) {
    const d: ProgramDetail = await routes.getProgram(client, id);
    const last = d.state.last_exit;
    if (last?.reason === 'spawn_failed') return { message: last.msg, stderr: [] };
    if (last && endedAtOnce(d)) {
      const after = `${last.duration_ms < 1000 ? `${Math.round(last.duration_ms)} ms` : `${(last.duration_ms / 1000).toFixed(1)} s`} after it started`;
      return { message: `${last.msg}, ${after}; now ${d.state.status}`, stderr: await stderrTail(client, id) };
    }
    // Stopped, to be running, with no exit yet: the process controller has not had its first
    // pass (the create answers once the record is stored), so nothing has settled.
    const notYet = d.state.status === 'Starting' || (d.state.status === 'Stopped' && d.state.desired === 'running' && last === null);
    if (notYet) {
      if (Date.now() >= until) return null;
    } else {
      watchUntil ??= Date.now() + WATCH_MS;
      if (Date.now() >= watchUntil || d.state.desired !== 'running') return null;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A crash, or an expected exit the program is restarted after (`Exited` is a program that was meant to end). */
function endedAtOnce(d: ProgramDetail): boolean {
  const reason = d.state.last_exit?.reason;
  return reason === 'crash' || (reason === 'exit' && d.state.status !== 'Exited');
}

/** The last lines the program wrote to stderr; none when the logs cannot be read (a file sink, no rights). */
async function stderrTail(client: ApiClient, id: string): Promise<string[]> {
  try {
    const { logs } = await routes.logs(client, id, new URLSearchParams({ tail: String(STDERR_LINES), source: 'stderr' }));
    return logs.map((l) => l.content);
  } catch {
    return [];
  }
}

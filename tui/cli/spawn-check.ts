import type { ProgramDetail } from '../../api/wire.js';
import type { ApiClient } from '../client/http.js';
import { routes } from '../client/routes.js';

/** How long `svc add` waits for the first spawn to settle before it stops looking. */
const SETTLE_MS = 3000;
const POLL_MS = 100;

/**
 * After `svc add`: waits until the first start has settled (started, or no longer Starting) and returns the
 * reason when the spawn failed (command not found, not executable, cwd missing...), else null.
 * The daemon spawns, so the check is its answer, right for a remote svcd and another user too.
 */
export async function firstSpawnProblem(client: ApiClient, id: string): Promise<string | null> {
  const until = Date.now() + SETTLE_MS;
  for (;;) {
    const d: ProgramDetail = await routes.getProgram(client, id);
    const last = d.state.last_exit;
    if (last?.reason === 'spawn_failed') return last.msg;
    // Stopped, to be running, with no exit yet: the process controller has not had its first
    // pass (the create answers once the record is stored), so nothing has settled.
    const notYet = d.state.status === 'Starting' || (d.state.status === 'Stopped' && d.state.desired === 'running' && last === null);
    if (!notYet || Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

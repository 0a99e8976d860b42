import type { Manager } from '../managers/manager.js';
import { pidAlive, waitFor } from '../proc.js';

/** S5: ms from the stop-all request until every child the manager reported is gone from /proc. */
export async function stopAll(m: Manager): Promise<number> {
  const pids = (await m.list()).flatMap((p) => (p.pid ? [p.pid] : []));
  if (pids.length === 0) throw new Error(`${m.variant}: nothing running to stop`);
  const t0 = performance.now();
  await m.stopAll();
  await waitFor(() => pids.every((pid) => !pidAlive(pid)), `${m.variant}: all ${pids.length} children gone`, 120_000, 5);
  return performance.now() - t0;
}

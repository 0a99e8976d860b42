import type { Manager } from '../managers/manager.js';
import { managerMiB, sleep, waitFor } from '../proc.js';
import { sleepPrograms } from '../programs.js';

export interface BulkStart {
  /** ms from the first request until the manager reports all N running with a pid. */
  ms: number;
  /** Daemon RSS (MiB) once all N run (summed over the manager's own processes). */
  rssMiB: number;
  /** The same before the programs were added. */
  rss0MiB: number;
  /** The same `settleMs` later, nothing asked of the manager meanwhile (null without settleMs). */
  rssSettledMiB: number | null;
}

/** S1: register and start N `sleep 3600` programs in one go, as the manager's users would. */
export async function bulkStart(m: Manager, n: number, settleMs = 0): Promise<BulkStart> {
  const programs = sleepPrograms(n, 'sleep');
  const pids = () => m.supervisorPids?.() ?? [m.daemonPid()];
  const rss0MiB = managerMiB(pids());
  const t0 = performance.now();
  await m.add(programs);
  await waitFor(async () => (await m.list()).filter((p) => p.running).length >= n, `${m.variant}: ${n} running`, 300_000, 5);
  const ms = performance.now() - t0;
  const rssMiB = managerMiB(pids());
  if (settleMs === 0) return { ms, rssMiB, rss0MiB, rssSettledMiB: null };
  await sleep(settleMs);
  return { ms, rssMiB, rss0MiB, rssSettledMiB: managerMiB(pids()) };
}

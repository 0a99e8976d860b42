import type { Manager } from '../managers/manager.js';
import { cpuSeconds, rssMiB, sleep } from '../proc.js';

export interface Idle {
  /** Daemon CPU (user+system) over the window, as % of one core. */
  cpuPct: number;
  rssMiB: number;
}

/** S2: with programs running and nobody asking, how much CPU the daemon burns over `secs`. */
export async function idle(m: Manager, secs: number, settleSecs = 2): Promise<Idle> {
  await sleep(settleSecs * 1000);
  const pid = m.daemonPid();
  const c0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(secs * 1000);
  const c1 = cpuSeconds(pid);
  const wall = (performance.now() - t0) / 1000;
  return { cpuPct: ((c1 - c0) / wall) * 100, rssMiB: rssMiB(pid) };
}

import type { Manager } from '../managers/manager.js';
import { contextSwitches, cpuSeconds, managerMiB, sleep } from '../proc.js';

export interface IdleWakeups {
  /** Context switches of all the daemon's threads per minute over the window. */
  perMinute: number;
  /** Daemon CPU (user+system) over the window, as % of one core. */
  cpuPct: number;
  rssMiB: number;
  /** Context switches in each second of the window: a steady timer shows as a row of equal counts, a collector's late pass as one burst. */
  perSecond: number[];
}

/**
 * Wake-ups at idle: with programs running and nobody asking, how often the daemon's threads are
 * scheduled over `secs` (context switches summed over /proc/<pid>/task/*). Robust to the load of
 * the machine: a sleeping thread switches once per wake-up however busy the cores are.
 * A manager made of several processes (svc's spawner, s6's supervisors) is counted whole.
 */
export async function idleWakeups(m: Manager, secs: number, settleSecs: number): Promise<IdleWakeups> {
  const pids = () => m.supervisorPids?.() ?? [m.daemonPid()];
  await sleep(settleSecs * 1000);
  const all = pids();
  const sum = (f: (pid: number) => number) => all.reduce((s, pid) => s + (f(pid) || 0), 0);
  const s0 = sum(contextSwitches);
  const c0 = sum(cpuSeconds);
  const t0 = performance.now();
  const perSecond: number[] = [];
  for (let last = s0; perSecond.length < secs; ) {
    await sleep(t0 + (perSecond.length + 1) * 1000 - performance.now());
    const now = sum(contextSwitches);
    perSecond.push(now - last);
    last = now;
  }
  const wall = (performance.now() - t0) / 1000;
  return { perMinute: ((sum(contextSwitches) - s0) / wall) * 60, cpuPct: ((sum(cpuSeconds) - c0) / wall) * 100, rssMiB: managerMiB(all), perSecond };
}

import type { Manager } from '../managers/manager.js';
import { pidAlive, waitFor } from '../proc.js';

/** S5's two moments, in ms from the stop-all request. */
export interface StopAllTimes {
  /** Every child the manager reported is gone from /proc (what the floor measures). */
  gone: number;
  /** The manager answered the request (svc: once it has seen every exit and recorded it). */
  answered: number;
}

/**
 * S5: /proc is polled while the request is in flight, so that a manager which answers only after
 * its bookkeeping of the exits (svc's batch Stop waits for every program to be Stopped) is timed
 * for the children as the floor is, and for its answer apart.
 */
export async function stopAll(m: Manager): Promise<StopAllTimes> {
  const pids = (await m.list()).flatMap((p) => (p.pid ? [p.pid] : []));
  if (pids.length === 0) throw new Error(`${m.variant}: nothing running to stop`);
  const t0 = performance.now();
  let answered = NaN;
  const request = m.stopAll().then(() => {
    answered = performance.now() - t0;
  });
  const polled = waitFor(() => pids.every((pid) => !pidAlive(pid)), `${m.variant}: all ${pids.length} children gone`, 120_000, 5).then(() => performance.now() - t0);
  const [gone] = await Promise.all([polled, request]);
  return { gone, answered };
}

import type { SvcManager } from '../managers/svc.js';
import { waitFor } from '../proc.js';
import { sleepPrograms } from '../programs.js';

/** S6 (svc only): ms from one PUT /api/v1/stack with N services until all N run. */
export async function stackApply(m: SvcManager, n: number): Promise<number> {
  const t0 = performance.now();
  await m.applyStack(sleepPrograms(n, 'stack'));
  await waitFor(async () => (await m.list()).filter((p) => p.running).length >= n, `svc: stack of ${n} running`, 300_000, 5);
  return performance.now() - t0;
}

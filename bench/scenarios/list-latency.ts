import type { StatusQuery } from '../managers/manager.js';

/** S4: `count` sequential full status queries (after one warm-up); ms each. */
export async function listLatency(query: StatusQuery, count: number): Promise<number[]> {
  await query.run();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await query.run();
    times.push(performance.now() - t0);
  }
  return times;
}

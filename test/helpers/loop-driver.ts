import type { FakeClock } from '../../reconciler/fake-clock.js';
import type { Reconciler } from '../../reconciler/reconciler.js';

/**
 * Drives reconcile loops on a fake clock: `settle` runs them until nothing is ready (future
 * timers stay pending); `advance` moves time, firing each timer at its own time and settling
 * after it, so that work one pass schedules runs before the next timer fires.
 */
export function loopDriver(clock: FakeClock, loops: Reconciler<string>[]) {
  const busy = () => loops.some((l) => l.queue.length > 0 || l.queue.inFlight > 0);
  const settle = async () => {
    for (let i = 0; i < 20; i++) {
      for (const loop of loops) await loop.idle();
      await new Promise((r) => setImmediate(r));
      if (!busy()) return;
    }
  };
  const advance = async (ms: number) => {
    const target = clock.now() + ms;
    for (;;) {
      const next = clock.nextTimerAt();
      if (next === null || next > target) break;
      clock.advance(Math.max(0, next - clock.now()));
      await settle();
    }
    clock.advance(target - clock.now());
    await settle();
  };
  return { settle, advance };
}

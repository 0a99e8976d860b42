import type { Clock } from '../../reconciler/clock.js';
import type { ObservedRegistry } from '../../state/observed.js';
import type { ProgramStore } from '../../state/store.js';
import type { SystemStats } from '../../state/system-stats.js';
import { departingWatch, watchProgram } from '../views.js';
import type { DepartingPrograms } from '../../state/departing.js';
import type { WatchMessage } from '../wire.js';
import { WatchCoalescer } from './coalescer.js';

export interface WatchSource {
  store: Pick<ProgramStore, 'list' | 'get' | 'onChange'>;
  observed: Pick<ObservedRegistry, 'get' | 'subscribe' | 'noteUsageRead'>;
  systemStats: () => SystemStats | null;
  clock: Clock;
  /** Removed programs whose process is still stopping: sent (removed: true) until it has ended. */
  departing?: Pick<DepartingPrograms, 'get' | 'list' | 'subscribe'>;
}

export interface WatchTiming {
  /** At most one message per program per window (ms). */
  windowMs: number;
  /** Period of the `system` line (ms). */
  systemMs: number;
}

/**
 * One watch client: the snapshot, then changes, until the returned function is called.
 * Snapshot then stream with nothing lost in between (process-compose's SubscribeWithSnapshot):
 * the listeners are attached first and the snapshot is read in the same synchronous turn, so a
 * change either is in the snapshot or marks the program dirty after it. While a client watches,
 * usage figures count as read, so the usage sampler keeps its normal pace.
 */
export function startWatch(src: WatchSource, send: (message: WatchMessage) => void, timing: WatchTiming): () => void {
  const { store, observed, clock, departing } = src;
  const coalescer = new WatchCoalescer({
    clock,
    windowMs: timing.windowMs,
    read: (id) => {
      const record = store.get(id);
      if (record) return watchProgram(record, observed.get(id));
      const gone = departing?.get(id);
      return gone ? departingWatch(gone, observed.get(id)) : null;
    },
    send,
  });
  const touch = (id: string) => coalescer.touch(id);
  const stops = [observed.subscribe(touch), store.onChange((ids) => ids.forEach(touch)), ...(departing ? [departing.subscribe(touch)] : [])];
  const programs = [...store.list().map((r) => watchProgram(r, observed.get(r.id))), ...(departing?.list() ?? []).map((d) => departingWatch(d, observed.get(d.record.id)))];
  coalescer.seed(programs);
  observed.noteUsageRead(clock.now());
  let stopped = false;
  let cancelTick = (): void => undefined;
  const stop = () => {
    stopped = true;
    for (const s of stops) s();
    coalescer.close();
    cancelTick();
  };
  const tick = () => {
    observed.noteUsageRead(clock.now());
    send({ type: 'system', system: src.systemStats() });
    if (!stopped) cancelTick = clock.setTimer(timing.systemMs, tick);
  };
  send({ type: 'snapshot', programs, system: src.systemStats() });
  cancelTick = clock.setTimer(timing.systemMs, tick);
  return stop;
}

import type { SystemStats, WatchMessage, WatchProgram } from '../../api/wire.js';
import { ApiError } from './errors.js';
import type { Timer } from './timer.js';
import type { WatchHandlers } from './watch.js';

/** Receives the state of svcd as the watch stream tells it, and the state of the link. */
export interface WatchSink {
  /** The whole list, at the first connection and after every reconnection. */
  snapshot(programs: WatchProgram[], system: SystemStats | null): void;
  program(program: WatchProgram): void;
  removed(id: string): void;
  system(system: SystemStats | null): void;
  /** The link is down; the next attempt is in `retryMs`. */
  disconnected(error: string, retryMs: number): void;
  /**
   * svcd refused the credential (401: a revoked or expired token, a changed auth_secret). Every
   * retry would be refused the same way, so the follow stops; `error` says why, with the hint.
   */
  refused(error: Error): void;
}

export interface FollowWatchDeps {
  /** Opens one stream (openWatch); resolves with its close function. */
  connect(handlers: WatchHandlers): Promise<() => void>;
  clock: Timer;
  /** First retry delay; doubles per failure up to `maxRetryMs`. */
  retryMs: number;
  maxRetryMs: number;
}

/**
 * Keeps a watch stream open: connects, hands every message to the sink, and when the stream
 * cannot open or ends, reports `disconnected` and tries again after 1, 2, 4... s (up to the
 * ceiling). A snapshot resets the backoff; a refused credential ends it. Returns the function that
 * stops for good.
 */
export function followWatch(deps: FollowWatchDeps, sink: WatchSink): () => void {
  let stopped = false;
  let failures = 0;
  let close: (() => void) | null = null;
  let cancelRetry: (() => void) | null = null;

  const deliver = (m: WatchMessage) => {
    if (stopped) return;
    switch (m.type) {
      case 'snapshot':
        failures = 0;
        return sink.snapshot(m.programs, m.system);
      case 'program':
        return sink.program(m.program);
      case 'removed':
        return sink.removed(m.id);
      case 'system':
        return sink.system(m.system);
    }
  };
  const fail = (err: Error) => {
    close = null;
    if (stopped) return;
    if (err instanceof ApiError && err.status === 401) {
      stopped = true;
      return sink.refused(err);
    }
    failures++;
    const retryMs = Math.min(deps.maxRetryMs, deps.retryMs * 2 ** (failures - 1));
    sink.disconnected(err.message, retryMs);
    cancelRetry = deps.clock.setTimer(retryMs, () => void connect());
  };
  const connect = async () => {
    cancelRetry = null;
    try {
      const opened = await deps.connect({ message: deliver, end: fail });
      if (stopped) return opened();
      close = opened;
    } catch (err) {
      fail(err as Error);
    }
  };

  void connect();
  return () => {
    stopped = true;
    cancelRetry?.();
    close?.();
  };
}

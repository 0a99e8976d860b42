import type { ActionOutcome, BatchAction, EventRecord, Health, ProgramDetail } from '../../api/wire.js';
import type { LogSink } from '../client/log-follow.js';
import type { WatchSink } from '../client/watch-follow.js';

export type { LogSink, WatchSink };

export interface EventQuery {
  programId?: string;
  type?: string;
  limit: number;
}

/**
 * Everything the dashboard needs from svcd: its port (STYLE.md 8). `api-client.ts` implements it
 * over tui/client/; tests hand the dashboard a fake. Failures reject with an Error whose message
 * is shown to the user as is.
 */
export interface DashboardClient {
  /** Follows the watch stream (snapshot, then changes; reconnects by itself); returns the stop. */
  watch(sink: WatchSink): () => void;
  detail(id: string): Promise<ProgramDetail>;
  /** Newest first. */
  events(q: EventQuery): Promise<EventRecord[]>;
  health(): Promise<Pick<Health, 'version'>>;
  batch(ids: string[], action: BatchAction): Promise<ActionOutcome[]>;
  /** Follows one program's logs; returns the function that stops following. */
  subscribeLogs(id: string, sink: LogSink): () => void;
}

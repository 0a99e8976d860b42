import type { BatchAction, BatchOutcome, EventItem, LogLine, LogMode, ProgramDetail, ProgramItem, SystemStats } from './types.js';

/** Receives a log subscription's output: `replace` swaps the whole buffer (a snapshot). */
export interface LogSink {
  lines(lines: LogLine[], replace: boolean): void;
  mode(mode: LogMode, error?: string): void;
}

export interface EventQuery {
  programId?: string;
  type?: string;
  limit: number;
}

/**
 * Everything the dashboard needs from svcd. Failures reject with an Error whose message is shown
 * to the user as is. Tests hand the dashboard a fake.
 */
export interface DashboardClient {
  list(): Promise<ProgramItem[]>;
  detail(id: string): Promise<ProgramDetail>;
  /** Newest first. */
  events(q: EventQuery): Promise<EventItem[]>;
  /** null when the daemon has no stats route (older svcd) or it failed. */
  stats(): Promise<SystemStats | null>;
  health(): Promise<{ version: string }>;
  batch(ids: string[], action: BatchAction): Promise<BatchOutcome[]>;
  /** Follows one program's logs; returns the function that stops following. */
  subscribeLogs(id: string, sink: LogSink): () => void;
}

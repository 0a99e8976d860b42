import type { LogLine } from '../../api/wire.js';
import { LOG_CLOSE_NOT_FOUND, connectLogSocket } from './log-socket.js';
import type { ApiClient } from './http.js';
import { realTimer, type Timer } from './timer.js';

/** live: WebSocket; polling: HTTP tail every second (no WebSocket route); closed: program gone. */
export type LogMode = 'connecting' | 'live' | 'polling' | 'closed';

/** Receives a log subscription's output: `replace` swaps the whole buffer (a snapshot). */
export interface LogSink {
  lines(lines: LogLine[], replace: boolean): void;
  mode(mode: LogMode, error?: string): void;
}

export interface FollowLogsOptions {
  /** The last lines over HTTP: the snapshot before the stream, and the fallback poll. */
  tail(): Promise<LogLine[]>;
  pollMs: number;
  clock?: Timer;
}

/**
 * Snapshot then stream (the dashboard's log pane): follows the WebSocket and, once it is open,
 * loads the tail over HTTP. When svcd answers the upgrade without a WebSocket (a daemon without
 * the route) it polls the tail instead. When svcd cannot be reached, or an open socket drops, it
 * reconnects with backoff: a daemon that is away (restarting, not started yet) is not one
 * without the route, and polling would outlive its return. Returns the function that stops
 * everything.
 */
export function followLogs(client: ApiClient, id: string, opts: FollowLogsOptions, sink: LogSink): () => void {
  const clock = opts.clock ?? realTimer;
  let stopped = false;
  let socket: ReturnType<typeof connectLogSocket> | null = null;
  let cancelTimer: (() => void) | null = null;
  let backoff = 500;
  let everOpened = false;

  const snapshot = async () => {
    try {
      const lines = await opts.tail();
      if (!stopped) sink.lines(lines, true);
    } catch {
      // The watch stream reports a lost daemon; the log pane keeps what it has.
    }
  };
  const poll = async () => {
    await snapshot();
    if (!stopped) cancelTimer = clock.setTimer(opts.pollMs, () => void poll());
  };
  const connect = () => {
    sink.mode('connecting');
    let opened = false;
    socket = connectLogSocket(client, id, {
      open: () => {
        opened = everOpened = true;
        backoff = 500;
        sink.mode('live');
        void snapshot();
      },
      line: (line) => {
        if (!stopped) sink.lines([line], false);
      },
      close: (code, _reason, error) => {
        if (stopped) return;
        socket = null;
        if (code === LOG_CLOSE_NOT_FOUND) return sink.mode('closed', 'program not found');
        if (!opened && !everOpened && !unreachable(error)) {
          // svcd answered, but not with a WebSocket: no route; poll the tail instead.
          sink.mode('polling');
          void poll();
          return;
        }
        cancelTimer = clock.setTimer(backoff, connect);
        backoff = Math.min(backoff * 2, 5000);
      },
    });
  };
  connect();
  return () => {
    stopped = true;
    cancelTimer?.();
    socket?.terminate();
  };
}

/** A failure to reach svcd at all (refused, reset, no socket file, timed out): an error with a system code. */
function unreachable(error: NodeJS.ErrnoException | null): boolean {
  return typeof error?.code === 'string';
}

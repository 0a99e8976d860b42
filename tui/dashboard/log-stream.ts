import WebSocket from 'ws';
import type { LogSink } from './client.js';
import type { LogLine } from './types.js';

export interface FollowOptions {
  /** WebSocket address of the program's stream. */
  url: string;
  token?: string;
  /** The last lines over HTTP: the snapshot before the stream, and the fallback poll. */
  tail(): Promise<LogLine[]>;
  pollMs: number;
}

/** WebSocket close code for an unknown program id. */
const NOT_FOUND = 4404;

/**
 * Snapshot then stream: loads the tail over HTTP, then follows the WebSocket. When the socket
 * cannot be opened (a daemon without the route) it polls the tail instead; when an open socket
 * drops it reconnects with backoff. Returns the function that stops everything.
 */
export function followLogs(opts: FollowOptions, sink: LogSink): () => void {
  let stopped = false;
  let ws: WebSocket | null = null;
  let timer: NodeJS.Timeout | null = null;
  let backoff = 500;

  const snapshot = async () => {
    try {
      const lines = await opts.tail();
      if (!stopped) sink.lines(lines, true);
    } catch {
      // The list poll reports a lost daemon; the log pane keeps what it has.
    }
  };
  const poll = async () => {
    await snapshot();
    if (!stopped) timer = setTimeout(() => void poll(), opts.pollMs);
  };
  const connect = () => {
    sink.mode('connecting');
    let opened = false;
    const socket = new WebSocket(opts.url, { headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} });
    ws = socket;
    socket.on('open', () => {
      opened = true;
      backoff = 500;
      sink.mode('live');
      void snapshot();
    });
    socket.on('message', (data: WebSocket.RawData) => {
      const line = parseLine(data);
      if (line && !stopped) sink.lines([line], false);
    });
    socket.on('error', () => {
      // 'close' follows and decides what to do.
    });
    socket.on('close', (code: number) => {
      if (stopped) return;
      ws = null;
      if (code === NOT_FOUND) return sink.mode('closed', 'program not found');
      if (!opened) {
        // Never opened: no WebSocket route (or no daemon); poll the tail instead.
        sink.mode('polling');
        void poll();
        return;
      }
      timer = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 5000);
    });
  };
  connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (ws) ws.terminate();
  };
}

function parseLine(data: WebSocket.RawData): LogLine | null {
  try {
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const m = JSON.parse(buf.toString('utf8')) as Partial<LogLine>;
    if (typeof m.content !== 'string') return null;
    return { source: m.source === 'stderr' ? 'stderr' : 'stdout', content: m.content, ts: m.ts };
  } catch {
    return null;
  }
}

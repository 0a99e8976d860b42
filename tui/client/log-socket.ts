import WebSocket from 'ws';
import type { LogStreamMessage } from '../../api/wire.js';
import { LogPieces } from '../../state/log-pieces.js';
import type { ApiClient } from './http.js';

/** Close code of `WS /ws` for an unknown or removed program (docs/observability.md). */
export const LOG_CLOSE_NOT_FOUND = 4404;

export interface LogSocketHandlers {
  open(): void;
  line(line: LogStreamMessage): void;
  /** The socket closed; `error` is what failed first, if anything (a refused connection). */
  close(code: number, reason: string, error: Error | null): void;
}

/** `WS /ws?id=` of one program: the one place that builds the address and reads the messages. */
export function connectLogSocket(client: ApiClient, id: string, h: LogSocketHandlers): { close(): void; terminate(): void } {
  const { url, headers } = client.webSocketTarget(`/ws?id=${encodeURIComponent(id)}`);
  const ws = new WebSocket(url, { headers });
  let error: Error | null = null;
  const pieces = new LogPieces();
  ws.on('open', () => h.open());
  ws.on('message', (data: WebSocket.RawData) => {
    const message = parseLine(data);
    const line = message && pieces.push(message);
    if (line) h.line(line);
  });
  ws.on('error', (err: Error) => {
    error ??= err; // 'close' follows and reports it
  });
  ws.on('close', (code: number, reason: Buffer) => h.close(code, reason.toString(), error));
  return { close: () => ws.close(1000), terminate: () => ws.terminate() };
}

/** A message as svcd sends it (a piece of a long line keeps `continues`), or null for anything else (skipped, never fatal). */
export function parseLine(data: WebSocket.RawData): LogStreamMessage | null {
  try {
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const m = JSON.parse(buf.toString('utf8')) as Partial<LogStreamMessage>;
    if (typeof m.content !== 'string') return null;
    const line: LogStreamMessage = { source: m.source === 'stderr' ? 'stderr' : 'stdout', content: m.content, ts: typeof m.ts === 'number' ? m.ts : 0 };
    return m.continues === true ? { ...line, continues: true } : line;
  } catch {
    return null;
  }
}

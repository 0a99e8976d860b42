import WebSocket from 'ws';
import { CliError, type ApiClient } from './client.js';

/** A message of `WS /ws?id=` (docs/observability.md). */
export interface StreamedLine {
  source: 'stdout' | 'stderr';
  content: string;
  ts: number;
}

/**
 * Opens the log stream of a program. Resolves once the socket is open with `start(onLine)`,
 * which delivers lines that arrived before it was called first (so a caller can print the tail
 * in between without losing lines), and `done`, which rejects with a CliError when the daemon
 * closes the stream (unknown program, auth, shutdown) and resolves after `close()`.
 */
export async function openLogStream(client: ApiClient, id: string) {
  const { url, headers } = client.webSocketTarget(`/ws?id=${encodeURIComponent(id)}`);
  const ws = new WebSocket(url, { headers });
  const early: StreamedLine[] = [];
  let deliver: ((line: StreamedLine) => void) | null = null;
  let closing = false;
  ws.on('message', (data: Buffer) => {
    const line = JSON.parse(data.toString('utf8')) as StreamedLine;
    if (deliver) deliver(line);
    else early.push(line);
  });
  const done = new Promise<void>((resolve, reject) => {
    ws.on('close', (code: number, reason: Buffer) => {
      if (closing) return resolve();
      reject(new CliError(`log stream closed by svcd (${code}${reason.length ? `: ${reason.toString()}` : ''})`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', (err: Error) => reject(new CliError(`cannot open the log stream at ${client.url}: ${err.message}`)));
  });
  ws.on('error', () => undefined); // reported through 'close'
  return {
    start(onLine: (line: StreamedLine) => void): void {
      deliver = onLine;
      for (const line of early.splice(0)) onLine(line);
    },
    done,
    close(): void {
      closing = true;
      ws.close(1000);
    },
  };
}

import type { LogLine, LogStreamMessage } from '../../api/wire.js';
import { ApiError } from './errors.js';
import type { ApiClient } from './http.js';
import { connectLogSocket } from './log-socket.js';
import { TailOverlap } from './log-overlap.js';

/** WebSocket close code for a connection that ended without a close frame (RFC 6455). */
const ABNORMAL_CLOSURE = 1006;

/**
 * Opens the log stream of a program (`svc logs -f`). Resolves once the socket is open with
 * `start(onLine, tail)`, which delivers lines that arrived before it was called first (so a caller
 * can print the tail in between without losing lines; those the printed tail already showed are
 * left out), and `done`, which rejects with an ApiError
 * when the daemon closes the stream (unknown program, auth, shutdown) and resolves after `close()`.
 */
export async function openLogStream(client: ApiClient, id: string) {
  const early: LogStreamMessage[] = [];
  let deliver: ((line: LogStreamMessage) => void) | null = null;
  let closing = false;
  let opened = false;
  let settle: { resolve(): void; reject(err: ApiError): void } | null = null;
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const socket = await new Promise<ReturnType<typeof connectLogSocket>>((resolve, reject) => {
    const s = connectLogSocket(client, id, {
      open: () => {
        opened = true;
        resolve(s);
      },
      line: (line) => (deliver ? deliver(line) : early.push(line)),
      close: (code, reason, error) => {
        if (!opened) return reject(new ApiError(`cannot open the log stream at ${client.url}: ${error?.message ?? `closed (${code})`}`, 'unreachable'));
        if (closing) return settle?.resolve();
        // 1006: the connection ended without a close frame, so svcd did not close it itself.
        if (code === ABNORMAL_CLOSURE) return settle?.reject(new ApiError(`lost the connection to svcd at ${client.url} (it was killed or restarted, or the network failed): the log stream ended`, 'closed'));
        settle?.reject(new ApiError(`log stream closed by svcd (${code}${reason ? `: ${reason}` : ''})`, 'closed'));
      },
    });
  });
  return {
    start(onLine: (line: LogStreamMessage) => void, tail: LogLine[] = []): void {
      const overlap = new TailOverlap(tail);
      deliver = (line) => overlap.keep(line) && onLine(line);
      for (const line of overlap.early(early.splice(0))) onLine(line);
    },
    done,
    close(): void {
      closing = true;
      socket.close();
    },
  };
}

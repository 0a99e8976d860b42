import type { WatchMessage } from '../../../api/wire.js';
import { SseParser } from '../../../tui/client/sse.js';
import { ApiError } from './http.js';

export type { WatchMessage };

export interface WatchStreamOptions {
  token(): string | null;
  /** Called on a 401, as Http does: the credential is missing or wrong. */
  unauthorized(message: string): void;
}

/**
 * Opens `GET /api/v1/watch` with fetch (EventSource cannot send the Bearer credential) and calls
 * `onMessage` for each message until the stream ends, `signal` aborts it, or nothing arrives for
 * `silenceMs` (svcd sends a `system` line every 3 s: silence means the link is gone). Resolves
 * when the stream ends; rejects with ApiError when it cannot open or breaks.
 */
export async function readWatch(opts: WatchStreamOptions, onMessage: (m: WatchMessage) => void, signal: AbortSignal, silenceMs = 10_000): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  const token = opts.token();
  if (token) headers.authorization = `Bearer ${token}`;
  const silence = new AbortController();
  const abort = () => silence.abort();
  signal.addEventListener('abort', abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => silence.abort(new Error(`no message for ${silenceMs / 1000} s`)), silenceMs);
  };
  try {
    arm();
    let res: Response;
    try {
      res = await fetch('/api/v1/watch', { headers, cache: 'no-store', signal: silence.signal });
    } catch (err) {
      throw new ApiError(0, `svcd is not reachable (${reason(err, silence.signal)})`);
    }
    if (!res.ok || !res.body) {
      const message = await errorMessage(res);
      if (res.status === 401) opts.unauthorized(message);
      throw new ApiError(res.status, message);
    }
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal.aborted) return;
        throw new ApiError(0, `the watch stream broke (${reason(err, silence.signal)})`);
      }
      if (chunk.done) return;
      arm();
      for (const data of parser.push(decoder.decode(chunk.value, { stream: true }))) onMessage(JSON.parse(data) as WatchMessage);
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

function reason(err: unknown, signal: AbortSignal): string {
  if (signal.aborted && signal.reason instanceof Error) return signal.reason.message;
  return err instanceof Error ? err.message : String(err);
}

async function errorMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not the daemon's JSON error body
  }
  return `HTTP ${res.status} ${res.statusText}`;
}

import type { WatchMessage } from '../../api/wire.js';
import { ApiError } from './errors.js';
import type { ApiClient } from './http.js';
import { SseParser } from './sse.js';

export interface WatchHandlers {
  message(message: WatchMessage): void;
  /** The stream ended by itself (not by the close function); called once. */
  end(err: ApiError): void;
}

/** svcd sends a `system` line every 3 s (docs/api.md): 9 s of silence means the link is gone. */
export const WATCH_IDLE_MS = 9000;

/**
 * One connection to `GET /api/v1/watch` (docs/api.md). Resolves with the function that closes
 * it once svcd accepted; rejects with an ApiError like any request (refused, 401, 404).
 */
export async function openWatch(client: ApiClient, handlers: WatchHandlers): Promise<() => void> {
  const parser = new SseParser();
  let closed = false;
  const { response, close } = await client.stream('/api/v1/watch', WATCH_IDLE_MS, (err) => handlers.end(err));
  const stop = () => {
    closed = true;
    close(); // the stream reports nothing after close
  };
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    for (const data of parser.push(chunk)) {
      if (closed) return;
      let message: WatchMessage;
      try {
        message = JSON.parse(data) as WatchMessage;
      } catch {
        stop();
        return handlers.end(new ApiError(`svcd at ${client.url} sent a watch message that is not JSON`, 'protocol'));
      }
      handlers.message(message);
    }
  });
  return stop;
}

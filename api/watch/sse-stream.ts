import { PassThrough } from 'node:stream';
import type { WatchMessage } from '../wire.js';

/** What may wait for one slow watch client before it is dropped (bytes, plus one message). */
export const WATCH_BUFFER_LIMIT = 1024 * 1024;

/**
 * A `text/event-stream` body: one `data:` line of JSON per message (JSON has no raw newlines).
 * What waits for the client is bounded: a message that finds more than `limit` bytes still
 * unread drops the client (`onDrop`), so a stalled reader costs svcd at most `limit` plus one
 * message and slows nobody. The first message (a snapshot of thousands of programs may exceed
 * the limit) always goes out.
 */
export class SseStream {
  readonly body = new PassThrough();
  private dropped = false;

  constructor(
    private readonly onDrop: () => void,
    private readonly limit = WATCH_BUFFER_LIMIT,
  ) {}

  /** Tells EventSource clients how long to wait before reconnecting (ms). */
  retry(ms: number): void {
    this.write(`retry: ${ms}\n\n`);
  }

  send(message: WatchMessage): void {
    this.write(`data: ${JSON.stringify(message)}\n\n`);
  }

  private write(frame: string): void {
    if (this.dropped || this.body.destroyed) return;
    if (this.body.writableLength + this.body.readableLength > this.limit) {
      this.dropped = true;
      this.onDrop();
      return;
    }
    this.body.write(frame);
  }
}

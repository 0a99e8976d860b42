import { PassThrough } from 'node:stream';
import type { WatchMessage } from '../wire.js';

/** What may wait for one slow watch client before it is dropped (bytes). */
export const WATCH_BUFFER_LIMIT = 1024 * 1024;

/**
 * A `text/event-stream` body: one `data:` line of JSON per message (JSON has no raw newlines).
 * What waits for the client is bounded: past `limit` bytes the client is dropped (`onDrop`), never
 * buffered without limit, so a stalled reader costs svcd at most `limit` and slows nobody.
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
    if (this.body.writableLength + this.body.readableLength + frame.length > this.limit) {
      this.dropped = true;
      this.onDrop();
      return;
    }
    this.body.write(frame);
  }
}

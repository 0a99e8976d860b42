import type { EventClock } from './clock.js';
import { stampEvent } from './stamp.js';
import type { EventInput, EventRecord, EventSink } from './types.js';

/** Receives every stamped event. Must return quickly and queue its own work (never block). */
export type EventListener = (record: EventRecord) => void;

/**
 * The daemon's one `EventSink`: stamps each event once (time and a sequence-based id) and hands
 * the same record to every subscriber: the history writer, metrics, and (later) notify and
 * reactions. A subscriber that throws is reported and never stops the others or the producer.
 */
export class EventBus implements EventSink {
  private readonly listeners = new Set<EventListener>();
  private seq: number;

  constructor(
    private readonly clock: Pick<EventClock, 'now'>,
    firstSeq: number,
    private readonly onListenerError: (err: unknown, record: EventRecord) => void = () => undefined,
  ) {
    this.seq = firstSeq;
  }

  emit(input: EventInput): void {
    const record = stampEvent(input, this.clock.now(), this.seq++);
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch (err) {
        this.onListenerError(err, record);
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

import type { EventRecord, EventType } from '../../../state/events/types.js';
import type { Severity } from '../config/types.js';

/** What suppression held back since a channel's last message: the "and N more" of the next one. */
export interface Suppressed {
  /** Messages not sent (grouped repeats already folded, so one per (program, event type) group). */
  messages: number;
  /** The events those messages carried. */
  events: number;
  /** Events by type, for the summary line. */
  by_event: Partial<Record<EventType, number>>;
}

/**
 * One message the engine decided to send. `event`: one (program, event type) group, with the
 * count of repeats in its window and the groups an inhibition rule folded into it; `summary`:
 * only what was suppressed, sent when the rate limit allows again and nothing else carries it.
 */
export interface Notice {
  channel: string;
  kind: 'event' | 'summary';
  severity: Severity;
  event: EventType | null;
  program_id: string | null;
  program_name: string | null;
  /** Events of this group (1 when it did not repeat). */
  count: number;
  first_ts_ms: number;
  last_ts_ms: number;
  /** The group's latest event record (null for a summary). */
  record: EventRecord | null;
  /** Groups an inhibition rule folded in (a fatal's earlier backoffs and exits). */
  folded: Partial<Record<EventType, number>>;
  suppressed: Suppressed;
}

export function noSuppressed(): Suppressed {
  return { messages: 0, events: 0, by_event: {} };
}

import type { EventInput, EventRecord } from './types.js';
import { eventId } from './keys.js';

/** The stored record for an input: time and id stamped, every absent field null. */
export function stampEvent(input: EventInput, tsMs: number, seq: number): EventRecord {
  return {
    id: eventId(tsMs, seq),
    ts: Math.floor(tsMs / 1000),
    ts_ms: tsMs,
    program_id: input.program_id ?? null,
    program_name: input.program_name ?? null,
    event: input.event,
    exit_code: input.exit_code ?? null,
    signal: input.signal ?? null,
    retry_count: input.retry_count ?? null,
    duration_secs: input.duration_secs ?? null,
    msg: input.msg,
  };
}

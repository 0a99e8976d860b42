/**
 * Key layout of the event store (see README.md). A record's id is also its primary key:
 * `<ts_ms, 15 digits>-<seq, 12 digits>`, so plain key order is `(ts_ms, id)` order.
 */
const TS_WIDTH = 15;
const SEQ_WIDTH = 12;

/** The stable id (and primary key) of the record stamped at `tsMs` with sequence `seq`. */
export function eventId(tsMs: number, seq: number): string {
  return `${padTs(tsMs)}-${String(seq).padStart(SEQ_WIDTH, '0')}`;
}

/** The sequence number inside an id; NaN for a malformed id. */
export function seqOf(id: string): number {
  return Number(id.slice(TS_WIDTH + 1));
}

/** The ts_ms inside an id. */
export function tsMsOf(id: string): number {
  return Number(id.slice(0, TS_WIDTH));
}

/** A bound that sorts before every id stamped at `tsMs` and after every earlier one. */
export function padTs(tsMs: number): string {
  return String(Math.max(0, Math.trunc(tsMs))).padStart(TS_WIDTH, '0');
}

/** Half-open id range `[gte, lt)` for an inclusive range of Unix seconds; open ends allowed. */
export function idRange(from: number | undefined, to: number | undefined): { gte: string; lt: string } {
  return {
    gte: from === undefined ? '' : padTs(from * 1000),
    lt: to === undefined ? '~' : padTs((to + 1) * 1000), // '~' sorts after every digit
  };
}

/** Per-program index key: `<program_id>!<id>`; its value is the event type. */
export function programKey(programId: string, id: string): string {
  return `${programId}!${id}`;
}

/** Per-type index key: `<event>!<id>`; its value is the program id or ''. */
export function typeKey(event: string, id: string): string {
  return `${event}!${id}`;
}

/** The id at the end of an index key. */
export function idOfIndexKey(key: string): string {
  return key.slice(key.indexOf('!') + 1);
}

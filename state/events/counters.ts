import type { EventType } from './types.js';

/** Counts of stored events by type, for the whole daemon and per program. */
export interface TypeCounts {
  total: number;
  /** Event type -> count, in descending count order (ties by type name). */
  by_type: Partial<Record<EventType, number>>;
}

const SYSTEM = ''; // bucket of events without a program

/**
 * Running counters of stored events, so that stats never scan the store: rebuilt from a key
 * scan at open, then moved by every committed write and retention delete.
 */
export class EventCounters {
  private readonly perProgram = new Map<string, Map<EventType, number>>();

  add(event: EventType, programId: string | null, delta = 1): void {
    const key = programId ?? SYSTEM;
    let counts = this.perProgram.get(key);
    if (!counts) this.perProgram.set(key, (counts = new Map()));
    const next = (counts.get(event) ?? 0) + delta;
    if (next > 0) counts.set(event, next);
    else counts.delete(event);
    if (counts.size === 0) this.perProgram.delete(key);
  }

  remove(event: EventType, programId: string | null): void {
    this.add(event, programId, -1);
  }

  /** Counts for one program, or for everything when `programId` is undefined. */
  counts(programId?: string): TypeCounts {
    const merged = new Map<EventType, number>();
    const buckets = programId === undefined ? [...this.perProgram.values()] : [this.perProgram.get(programId) ?? new Map<EventType, number>()];
    for (const counts of buckets) for (const [event, n] of counts) merged.set(event, (merged.get(event) ?? 0) + n);
    const ordered = [...merged].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return { total: ordered.reduce((sum, [, n]) => sum + n, 0), by_type: Object.fromEntries(ordered) };
  }
}

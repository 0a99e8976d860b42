import { CronExpressionParser, type CronExpression } from 'cron-parser';

/**
 * A compiled cron schedule: pure time arithmetic over cron-parser 5 (no clock reads). Slots are
 * Unix milliseconds. Expressions were validated on write (5 fields, 6 with seconds first, or an
 * @alias; state/schema/validate.ts); `tz` is an IANA zone, undefined = the daemon's local zone.
 */
export interface Schedule {
  /** Identifies expression + zone; a change of either restarts the schedule without catch-up. */
  readonly key: string;
  /** The first slot strictly after `afterMs`, or null when there is none (or it cannot be computed). */
  next(afterMs: number): number | null;
  /** Slots in (afterMs, untilMs], newest first, at most `limit` of them. */
  slotsDesc(afterMs: number, untilMs: number, limit: number): number[];
}

export function scheduleKey(expression: string, tz: string | undefined): string {
  return `${expression}\u0000${tz ?? ''}`;
}

export function compileSchedule(expression: string, tz: string | undefined): Schedule {
  // One parsed expression reused with reset(): parsing costs far more than stepping.
  const expr: CronExpression = CronExpressionParser.parse(expression, { strict: false, tz });
  return {
    key: scheduleKey(expression, tz),
    next(afterMs) {
      try {
        expr.reset(new Date(afterMs));
        return expr.next().getTime();
      } catch {
        return null;
      }
    },
    slotsDesc(afterMs, untilMs, limit) {
      const out: number[] = [];
      if (untilMs <= afterMs || limit <= 0) return out;
      try {
        // prev() is strictly before the current date, so start 1 ms after `untilMs` to include it.
        expr.reset(new Date(untilMs + 1));
        while (out.length < limit) {
          const slot = expr.prev().getTime();
          if (slot <= afterMs) break;
          out.push(slot);
        }
      } catch {
        // No earlier slot: the list is complete.
      }
      return out;
    },
  };
}

/** Compiled schedules by key, so 1,000 programs do not re-parse on every pass. */
export class ScheduleCache {
  private readonly cache = new Map<string, Schedule>();

  get(expression: string, tz: string | undefined): Schedule | null {
    const key = scheduleKey(expression, tz);
    let schedule = this.cache.get(key);
    if (!schedule) {
      try {
        schedule = compileSchedule(expression, tz);
      } catch {
        return null; // validated on write; a zone that vanished from tzdata leaves it unscheduled
      }
      if (this.cache.size >= 10_000) this.cache.clear();
      this.cache.set(key, schedule);
    }
    return schedule;
  }
}

import { createRequire } from 'node:module';
import type { CronExpression } from 'cron-parser';
import { cronHashSeed } from '../../state/cron-hash.js';

/** cron-parser (and its date library) loads with the first schedule: most daemons have none. */
const requireCjs = createRequire(import.meta.url);
const cronParser = (): typeof import('cron-parser') => requireCjs('cron-parser') as typeof import('cron-parser');

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

/** `hashSeed`: the program's name when the expression uses `H` (state/cron-hash.ts), else undefined. */
export function scheduleKey(expression: string, tz: string | undefined, hashSeed?: string): string {
  return `${expression}\u0000${tz ?? ''}${hashSeed === undefined ? '' : `\u0000${hashSeed}`}`;
}

/** Slot intervals kept per schedule: enough for the slots a pass looks at, and then some. */
const MEMO_INTERVALS = 8;

export function compileSchedule(expression: string, tz: string | undefined, hashSeed?: string): Schedule {
  // One parsed expression reused with reset(): parsing costs far more than stepping.
  const expr: CronExpression = cronParser().CronExpressionParser.parse(expression, { strict: false, tz, hashSeed });
  // [slot, next slot) intervals already computed, newest use first. Every program on this
  // schedule asks about the same few slots (1,000 jobs due in one second ask 1,000 times), and
  // stepping cron-parser costs tens of microseconds and much garbage each time.
  const memo: { from: number; to: number }[] = [];
  /** The interval holding `t`: `from` the newest slot at or before t, `to` the first slot after it. */
  const around = (t: number): { from: number; to: number } | null => {
    const hit = memo.findIndex((iv) => iv.from <= t && t < iv.to);
    if (hit >= 0) {
      const iv = memo[hit];
      if (hit > 0) {
        memo.splice(hit, 1);
        memo.unshift(iv);
      }
      return iv;
    }
    try {
      // prev() is strictly before the current date, so start 1 ms after `t` to include it.
      expr.reset(new Date(t + 1));
      const from = expr.prev().getTime();
      expr.reset(new Date(from));
      const iv = { from, to: expr.next().getTime() };
      // cron-parser is not always consistent around a DST change (next() of a shifted slot can
      // be that slot): such an interval is not kept, the caller steps directly.
      if (!(iv.from <= t && t < iv.to)) return null;
      memo.unshift(iv);
      if (memo.length > MEMO_INTERVALS) memo.pop();
      return iv;
    } catch {
      return null; // no slot at or before t, or none after it: not kept
    }
  };
  /** The first slot strictly after `afterMs`: the schedule that fires. */
  const next = (afterMs: number): number | null => {
    const iv = around(afterMs);
    if (iv) return iv.to;
    try {
      expr.reset(new Date(afterMs));
      return expr.next().getTime();
    } catch {
      return null;
    }
  };
  /** What prev() lists in (afterMs, untilMs], newest first, at most `limit`: only to bound slotsDesc. */
  const backwards = (afterMs: number, untilMs: number, limit: number): number[] => {
    const out: number[] = [];
    let t = untilMs;
    while (out.length < limit) {
      const iv = around(t);
      if (iv) {
        if (iv.from <= afterMs) break;
        out.push(iv.from);
        t = iv.from - 1;
        continue;
      }
      // Outside what the memo can hold (the first or last slot there is): step directly.
      try {
        expr.reset(new Date(t + 1));
        const slot = expr.prev().getTime();
        if (slot <= afterMs) break;
        out.push(slot);
        t = slot - 1;
      } catch {
        break; // no earlier slot: the list is complete
      }
    }
    return out;
  };
  /** The slots next() steps through in (fromMs, untilMs], oldest first, at most `steps` steps. */
  const forwards = (fromMs: number, untilMs: number, steps: number): number[] => {
    const out: number[] = [];
    let t = fromMs;
    for (let i = 0; i < steps; i++) {
      const slot = next(t);
      if (slot === null || slot > untilMs) break;
      if (slot <= t) {
        t += 1; // never step in place
        continue;
      }
      out.push(slot);
      t = slot;
    }
    return out;
  };
  return {
    key: scheduleKey(expression, tz, hashSeed),
    next,
    slotsDesc(afterMs, untilMs, limit) {
      if (untilMs <= afterMs || limit <= 0) return [];
      // Stepping backwards finds cheaply where the newest `limit` slots begin (a long downtime of
      // a per-second schedule). It does not list them: around a DST change cron-parser's prev()
      // and next() disagree (prev() misses the shifted slot of a skipped hour, and lists the
      // second 02:30 of a repeated hour, which next() skips). next() is the schedule that fires,
      // so the slots are those it steps through from there: the slot it waits for is always due.
      // As prev() can list more slots than there are, the window is widened (twice as many steps
      // back) until it holds `limit` slots or reaches afterMs.
      let out: number[] = [];
      for (let back = limit; back <= limit * 64; back *= 2) {
        const found = backwards(afterMs, untilMs, back);
        const complete = found.length < back;
        out = forwards(complete ? afterMs : Math.max(afterMs, found[found.length - 1] - 1), untilMs, 2 * back + 8);
        if (complete || out.length >= limit) break;
      }
      return out.reverse().slice(0, limit);
    },
  };
}

/** Compiled schedules by key, so 1,000 programs do not re-parse on every pass. */
export class ScheduleCache {
  private readonly cache = new Map<string, Schedule>();
  /** Whether an expression uses `H`, looked at once per expression, not on every pass. */
  private readonly hashed = new Map<string, boolean>();

  /** `name`: the program's, which seeds an `H` in the expression (one schedule per program then). */
  get(expression: string, tz: string | undefined, name: string): Schedule | null {
    let usesH = this.hashed.get(expression);
    if (usesH === undefined) {
      usesH = cronHashSeed(expression, name) !== undefined;
      if (this.hashed.size >= 10_000) this.hashed.clear();
      this.hashed.set(expression, usesH);
    }
    const hashSeed = usesH ? name : undefined;
    const key = scheduleKey(expression, tz, hashSeed);
    let schedule = this.cache.get(key);
    if (!schedule) {
      try {
        schedule = compileSchedule(expression, tz, hashSeed);
      } catch {
        return null; // validated on write; a zone that vanished from tzdata leaves it unscheduled
      }
      if (this.cache.size >= 10_000) this.cache.clear();
      this.cache.set(key, schedule);
    }
    return schedule;
  }
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CronExpressionParser } from 'cron-parser';
import { compileSchedule } from '../../../controllers/cron/schedule.js';

/**
 * The answers straight from cron-parser, one fresh expression per question (no memo). The slots
 * of a range are those its next() steps through (the schedule that fires), not what prev() lists:
 * the two disagree around a DST change.
 */
function reference(expression: string, tz: string | undefined) {
  const parse = (at: number) => CronExpressionParser.parse(expression, { strict: false, tz, currentDate: new Date(at) });
  return {
    next: (after: number) => parse(after).next().getTime(),
    slotsDesc(after: number, until: number, limit: number) {
      // prev() only finds where to begin: a slot at or before `after`, or limit + 2 slots back.
      const back = parse(until + 1);
      let start = after;
      for (let i = 0; i < limit + 2 && start >= after; i++) {
        try {
          start = back.prev().getTime();
        } catch {
          break;
        }
      }
      const out: number[] = [];
      const forward = parse(start);
      for (let slot = forward.next().getTime(); slot <= until; slot = forward.next().getTime()) if (slot > after) out.push(slot);
      return out.reverse().slice(0, limit);
    },
  };
}

/** A fixed pseudo-random sequence (deterministic). */
function* times(seed: number, from: number, spanMs: number, n: number): Generator<number> {
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield from + (x % spanMs);
  }
}

test("the slot memo answers exactly as cron-parser's next() does, across DST changes and repeated questions", () => {
  const cases: [string, string | undefined, number][] = [
    ['7 * * * * *', 'UTC', Date.UTC(2026, 10, 23, 10, 0, 0)],
    ['*/5 * * * *', 'UTC', Date.UTC(2026, 10, 23, 10, 0, 0)],
    ['30 2 * * *', 'Europe/Berlin', Date.UTC(2026, 2, 27)], // 29 March 2026: 02:30 does not exist
    ['0 1-3 * * *', 'America/New_York', Date.UTC(2026, 10, 30)], // 1 November: 01:xx twice
    ['0 0 29 2 *', 'UTC', Date.UTC(2026, 0, 1)],
  ];
  for (const [expression, tz, from] of cases) {
    const memo = compileSchedule(expression, tz);
    const ref = reference(expression, tz);
    const span = 10 * 24 * 3600_000;
    const ts = [...times(7, from, span, 300)];
    // Each time asked twice in a row (the memo's hits) and interleaved (its misses).
    for (const t of [...ts, ...ts.slice().reverse(), ...ts]) {
      assert.equal(memo.next(t), ref.next(t), `${expression} ${tz}: next(${new Date(t).toISOString()})`);
      assert.equal(memo.next(t), ref.next(t));
      const after = t - span / 4;
      assert.deepEqual(memo.slotsDesc(after, t, 5), ref.slotsDesc(after, t, 5), `${expression} ${tz}: slotsDesc(.., ${new Date(t).toISOString()})`);
    }
  }
});

test('the slot memo: a slot exactly at the bounds, and empty ranges', () => {
  const s = compileSchedule('0 * * * * *', 'UTC');
  const slot = Date.UTC(2026, 10, 23, 10, 5, 0);
  assert.deepEqual(s.slotsDesc(slot - 1, slot, 3), [slot], 'until is included');
  assert.deepEqual(s.slotsDesc(slot, slot + 59_999, 3), [], 'after is excluded');
  assert.deepEqual(s.slotsDesc(slot, slot, 3), []);
  assert.equal(s.next(slot), slot + 60_000, 'strictly after');
  assert.equal(s.next(slot - 1), slot);
  assert.deepEqual(s.slotsDesc(slot - 180_001, slot, 10), [slot, slot - 60_000, slot - 120_000, slot - 180_000]);
});

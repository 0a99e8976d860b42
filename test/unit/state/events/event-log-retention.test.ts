import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { eventQuery } from '../../../../state/events/query-types.js';
import { DAY_MS } from '../../../../state/events/retention.js';
import { tempEventLog } from '../../../helpers/event-log.js';

const A = '11111111-1111-4111-8111-111111111111';
const HOUR = 3_600_000;

/** Ten days of events, one at noon UTC each day, written with retention off. */
async function tenDays() {
  const clock = new FakeClock(Date.UTC(2024, 0, 1, 12));
  const env = await tempEventLog({ clock });
  for (let day = 0; day < 10; day++) {
    env.current.emit({ event: day % 2 ? 'process_exit' : 'process_started', program_id: A, program_name: 'web', msg: `day ${day}` });
    env.current.emit({ event: 'system_startup', msg: `day ${day}` });
    await env.current.flush();
    clock.advance(DAY_MS);
  }
  return env; // now: 2024-01-11 12:00 UTC
}

void test('retention at open deletes records older than keep days with their index entries', async () => {
  const env = await tenDays();
  try {
    const log = await env.reopen({ keepDays: 3 });
    const rs = await log.query(eventQuery({}));
    assert.deepEqual([...new Set(rs.map((r) => r.msg))], ['day 7', 'day 8', 'day 9']);
    assert.deepEqual((await log.query(eventQuery({ program_id: A }))).map((r) => r.msg), ['day 7', 'day 8', 'day 9']);
    assert.deepEqual((await log.query(eventQuery({ event_type: 'system_startup' }))).length, 3);
    assert.deepEqual(await log.stats(A), { total: 3, by_type: { process_exit: 2, process_started: 1 }, first_ts: Date.UTC(2024, 0, 8, 12) / 1000, last_ts: Date.UTC(2024, 0, 10, 12) / 1000 });
    assert.equal((await log.stats()).total, 6);
  } finally {
    await env.cleanup();
  }
});

void test('retention runs again at the next UTC midnight on the clock', async () => {
  const env = await tenDays();
  try {
    const log = await env.reopen({ keepDays: 3 });
    env.clock.advance(12 * HOUR - 1); // 23:59:59.999
    await log.retentionIdle();
    assert.equal((await log.stats()).total, 6);
    env.clock.advance(1); // midnight: cutoff 2024-01-09 00:00, day 7 (Jan 8) goes
    await log.retentionIdle();
    assert.deepEqual([...new Set((await log.query(eventQuery({}))).map((r) => r.msg))], ['day 8', 'day 9']);
  } finally {
    await env.cleanup();
  }
});

void test('events_keep_days 0 keeps everything', async () => {
  const env = await tenDays();
  try {
    const log = await env.reopen({ keepDays: 0 });
    env.clock.advance(400 * DAY_MS);
    assert.equal((await log.stats()).total, 20);
  } finally {
    await env.cleanup();
  }
});

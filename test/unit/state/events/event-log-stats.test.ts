import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempEventLog } from '../../../helpers/event-log.js';

const A = '11111111-1111-4111-8111-111111111111';

void test('stats: totals, by_type ordered by count, retained range; per program and empty', async () => {
  const env = await tempEventLog();
  try {
    const log = env.current;
    const t0 = Math.floor(env.clock.now() / 1000);
    assert.deepEqual(await log.stats(), { total: 0, by_type: {}, first_ts: null, last_ts: null });
    log.emit({ event: 'system_startup', msg: 'up' });
    env.clock.advance(2000);
    log.emit({ event: 'process_started', program_id: A, program_name: 'web', msg: 's' });
    env.clock.advance(3000);
    log.emit({ event: 'process_exit', program_id: A, program_name: 'web', exit_code: 1, msg: 'e' });
    log.emit({ event: 'process_exit', program_id: A, program_name: 'web', exit_code: 1, msg: 'e' });
    await log.flush();
    const all = await log.stats();
    assert.deepEqual(all, { total: 4, by_type: { process_exit: 2, process_started: 1, system_startup: 1 }, first_ts: t0, last_ts: t0 + 5 });
    assert.deepEqual(Object.keys(all.by_type), ['process_exit', 'process_started', 'system_startup']);
    assert.deepEqual(await log.stats(A), { total: 3, by_type: { process_exit: 2, process_started: 1 }, first_ts: t0 + 2, last_ts: t0 + 5 });
    assert.deepEqual(await log.stats('nope'), { total: 0, by_type: {}, first_ts: null, last_ts: null });
    assert.deepEqual(log.writerStats(), { queued: 0, written: 4, dropped: 0, failed: 0 });
  } finally {
    await env.cleanup();
  }
});

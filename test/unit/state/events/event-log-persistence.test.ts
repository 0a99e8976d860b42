import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventQuery } from '../../../../state/events/query-types.js';
import { tempEventLog } from '../../../helpers/event-log.js';

const A = '11111111-1111-4111-8111-111111111111';

void test('records, counters and id sequence survive close and reopen', async () => {
  const env = await tempEventLog();
  try {
    env.current.emit({ event: 'process_started', program_id: A, program_name: 'web', msg: 'first run' });
    env.current.emit({ event: 'system_shutdown', msg: 'bye' });
    await env.current.close(); // close flushes the queue
    const log = await env.reopen();
    // Same millisecond as before the restart: the id sequence continues, nothing is overwritten.
    log.emit({ event: 'process_started', program_id: A, program_name: 'web', msg: 'second run' });
    await log.flush();
    const rs = await log.query(eventQuery({ program_id: A }));
    assert.deepEqual(rs.map((r) => r.msg), ['first run', 'second run']);
    assert.ok(rs[0].id < rs[1].id);
    assert.deepEqual((await log.stats()).by_type, { process_started: 2, system_shutdown: 1 });
    assert.deepEqual(await log.stats(A).then((s) => s.total), 2);
  } finally {
    await env.cleanup();
  }
});

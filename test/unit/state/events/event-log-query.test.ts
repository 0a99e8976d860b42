import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventQuery, type EventQuery } from '../../../../state/events/query-types.js';
import type { EventInput, EventRecord } from '../../../../state/events/types.js';
import { tempEventLog } from '../../../helpers/event-log.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const T0 = Date.UTC(2024, 0, 10, 12) / 1000; // the helper's fake clock start, in seconds

// One event per second from T0: [seconds after T0, input].
const SEED: [number, EventInput][] = [
  [0, { event: 'system_startup', msg: 'svcd started' }],
  [1, { event: 'process_started', program_id: A, program_name: 'web', msg: 'started pid 10' }],
  [2, { event: 'process_started', program_id: B, program_name: 'worker', msg: 'started pid 11' }],
  [3, { event: 'process_exit', program_id: A, program_name: 'web', exit_code: 1, msg: 'crashed: exit code 1' }],
  [4, { event: 'process_backoff', program_id: A, program_name: 'web', exit_code: 1, retry_count: 1, msg: 'retry 1/3 in 1000 ms' }],
  [5, { event: 'process_started', program_id: A, program_name: 'web', msg: 'started pid 12 (retry 1)' }],
  [6, { event: 'process_exit', program_id: B, program_name: 'worker', signal: 9, msg: 'Stopped on request: killed by signal 9 (SIGKILL)' }],
  [7, { event: 'process_exit', program_id: A, program_name: 'web', exit_code: 2, msg: 'crashed: exit code 2' }],
  [8, { event: 'process_fatal', program_id: A, program_name: 'web', exit_code: 2, retry_count: 3, msg: 'gave up after 3 retries' }],
  [9, { event: 'system_shutdown', msg: 'svcd stopped' }],
];

let env: Awaited<ReturnType<typeof tempEventLog>>;
before(async () => {
  env = await tempEventLog();
  for (const [at, input] of SEED) {
    env.clock.advance(at * 1000 - (env.clock.now() - T0 * 1000));
    env.current.emit(input);
  }
  await env.current.flush();
});
after(() => env.cleanup());

const run = (q: Partial<EventQuery>) => env.current.query(eventQuery(q));
const secs = (rs: EventRecord[]) => rs.map((r) => r.ts - T0);

void test('default: everything ascending by time with the spec fields', async () => {
  const rs = await run({});
  assert.deepEqual(secs(rs), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(Object.keys(rs[0]).sort(), ['duration_secs', 'event', 'exit_code', 'id', 'msg', 'program_id', 'program_name', 'retry_count', 'signal', 'ts', 'ts_ms'].sort());
  assert.equal(rs[0].program_id, null);
  assert.equal(rs[4].retry_count, 1);
});

void test('each filter on its own', async () => {
  assert.deepEqual(secs(await run({ program_id: A })), [1, 3, 4, 5, 7, 8]);
  assert.deepEqual(secs(await run({ program_id: B })), [2, 6]);
  assert.deepEqual(secs(await run({ program_id: '33333333-3333-4333-8333-333333333333' })), []);
  assert.deepEqual(secs(await run({ from: T0 + 3 })), [3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(secs(await run({ to: T0 + 2 })), [0, 1, 2]);
  assert.deepEqual(secs(await run({ from: T0 + 4, to: T0 + 4 })), [4]);
  assert.deepEqual(secs(await run({ event_type: 'process_exit' })), [3, 6, 7]);
  assert.deepEqual(secs(await run({ exit_code: 2 })), [7, 8]);
  assert.deepEqual(secs(await run({ q: 'CRASHED' })), [3, 7]);
  assert.deepEqual(secs(await run({ q: 'sigkill' })), [6]);
});

void test('filters combine', async () => {
  assert.deepEqual(secs(await run({ program_id: A, event_type: 'process_exit' })), [3, 7]);
  assert.deepEqual(secs(await run({ program_id: A, event_type: 'process_exit', exit_code: 2 })), [7]);
  assert.deepEqual(secs(await run({ program_id: A, from: T0 + 4, to: T0 + 7, q: 'started' })), [5]);
  assert.deepEqual(secs(await run({ event_type: 'process_started', from: T0 + 2 })), [2, 5]);
  assert.deepEqual(secs(await run({ event_type: 'process_started', program_id: B, q: 'pid' })), [2]);
});

void test('time order desc, limit and offset paginate', async () => {
  assert.deepEqual(secs(await run({ order: 'desc', limit: 3 })), [9, 8, 7]);
  assert.deepEqual(secs(await run({ order: 'desc', limit: 3, offset: 3 })), [6, 5, 4]);
  assert.deepEqual(secs(await run({ program_id: A, order: 'desc', limit: 2, offset: 1 })), [7, 5]);
  assert.deepEqual(secs(await run({ limit: 4, offset: 8 })), [8, 9]);
  assert.deepEqual(secs(await run({ offset: 20 })), []);
});

void test('sort by each other key, nulls last ascending and ties in time order', async () => {
  assert.deepEqual(secs(await run({ sort_by: 'exit_code' })), [3, 4, 7, 8, 0, 1, 2, 5, 6, 9]);
  assert.deepEqual(secs(await run({ sort_by: 'exit_code', order: 'desc' })), [9, 6, 5, 2, 1, 0, 8, 7, 4, 3]);
  assert.deepEqual(secs(await run({ sort_by: 'signal', limit: 1 })), [6]);
  assert.deepEqual(secs(await run({ sort_by: 'retry_count', order: 'desc' })), [9, 7, 6, 5, 3, 2, 1, 0, 8, 4]);
  assert.deepEqual(secs(await run({ sort_by: 'duration_secs', limit: 2 })), [0, 1]);
  assert.deepEqual((await run({ sort_by: 'event' })).map((r) => r.event), [
    'process_backoff', 'process_exit', 'process_exit', 'process_exit', 'process_fatal',
    'process_started', 'process_started', 'process_started', 'system_shutdown', 'system_startup',
  ]);
  assert.deepEqual(secs(await run({ sort_by: 'msg', program_id: A, limit: 2, offset: 1 })), [7, 8]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import type { EventRecord } from '../../../../state/events/types.js';
import { BATCH_SIZE, EventWriter } from '../../../../state/events/writer.js';
import { ManualScheduler } from '../../../helpers/event-log.js';

function setup(opts: { capacity?: number; fail?: boolean } = {}) {
  const clock = new FakeClock(1_700_000_000_123);
  const scheduler = new ManualScheduler();
  const batches: EventRecord[][] = [];
  const errors: number[] = [];
  const writer = new EventWriter({
    clock,
    firstSeq: 7,
    capacity: opts.capacity,
    schedule: scheduler.schedule,
    write: async (records) => {
      if (opts.fail) throw new Error('disk full');
      batches.push(records);
    },
    onWriteError: (_err, lost) => errors.push(lost),
  });
  return { clock, scheduler, batches, errors, writer };
}

void test('emit stamps time, a monotonic id and nulls, and writes nothing until the writer runs', async () => {
  const { writer, batches, clock, scheduler } = setup();
  writer.emit({ event: 'system_startup', msg: 'up' });
  clock.advance(1500);
  writer.emit({ event: 'process_exit', program_id: 'p1', program_name: 'web', exit_code: 1, msg: 'crashed' });
  assert.equal(batches.length, 0);
  assert.deepEqual(writer.stats(), { queued: 2, written: 0, dropped: 0, failed: 0 });
  scheduler.run();
  await writer.flush();
  const [a, b] = batches[0];
  assert.deepEqual(a, {
    id: '001700000000123-000000000007', ts: 1_700_000_000, ts_ms: 1_700_000_000_123, program_id: null, program_name: null,
    event: 'system_startup', exit_code: null, signal: null, retry_count: null, duration_secs: null, msg: 'up',
  });
  assert.equal(b.id, '001700000001623-000000000008');
  assert.equal(b.exit_code, 1);
  assert.deepEqual(writer.stats(), { queued: 0, written: 2, dropped: 0, failed: 0 });
});

void test('the background writer flushes in batches of at most 512 rows', async () => {
  const { writer, batches, scheduler } = setup();
  for (let i = 0; i < 1300; i++) writer.emit({ event: 'process_started', msg: `n${i}` });
  scheduler.run();
  await writer.flush();
  assert.deepEqual(batches.map((b) => b.length), [BATCH_SIZE, BATCH_SIZE, 1300 - 2 * BATCH_SIZE]);
  assert.deepEqual(batches.flat().map((r) => r.msg).slice(0, 3), ['n0', 'n1', 'n2']);
  assert.equal(writer.stats().written, 1300);
});

void test('a full queue drops new records and counts them, without throwing', async () => {
  const { writer, batches } = setup({ capacity: 10 });
  for (let i = 0; i < 15; i++) writer.emit({ event: 'process_started', msg: `n${i}` });
  assert.deepEqual(writer.stats(), { queued: 10, written: 0, dropped: 5, failed: 0 });
  await writer.flush();
  assert.deepEqual(batches.flat().map((r) => r.msg), Array.from({ length: 10 }, (_, i) => `n${i}`));
  writer.emit({ event: 'process_started', msg: 'after' });
  await writer.flush();
  assert.deepEqual(writer.stats(), { queued: 0, written: 11, dropped: 5, failed: 0 });
});

void test('a failed batch is counted and reported, and the writer keeps going', async () => {
  const { writer, errors } = setup({ fail: true });
  writer.emit({ event: 'process_started', msg: 'x' });
  await writer.flush();
  assert.deepEqual(writer.stats(), { queued: 0, written: 0, dropped: 0, failed: 1 });
  assert.deepEqual(errors, [1]);
});

void test('after close, emit drops instead of queueing', async () => {
  const { writer } = setup();
  writer.emit({ event: 'process_started', msg: 'x' });
  await writer.close();
  writer.emit({ event: 'process_started', msg: 'late' });
  assert.deepEqual(writer.stats(), { queued: 0, written: 1, dropped: 1, failed: 0 });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { WorkQueue } from '../../../reconciler/work-queue.js';
import { Reconciler } from '../../../reconciler/reconciler.js';

test('a key queued twice is handed out once', () => {
  const q = new WorkQueue<string>(new FakeClock(), () => undefined);
  q.add('a');
  q.add('a');
  q.add('b');
  assert.equal(q.take(), 'a');
  assert.equal(q.take(), 'b');
  assert.equal(q.take(), undefined);
});

test('a key in flight is not handed out again; added meanwhile, it comes back after done', () => {
  const q = new WorkQueue<string>(new FakeClock(), () => undefined);
  q.add('a');
  assert.equal(q.take(), 'a');
  q.add('a');
  assert.equal(q.take(), undefined);
  q.done('a');
  assert.equal(q.take(), 'a');
});

test('addAfter delays with one timer; the earliest due time wins', () => {
  const clock = new FakeClock();
  const q = new WorkQueue<string>(clock, () => undefined);
  q.addAfter('a', 100);
  q.addAfter('a', 50);
  q.addAfter('a', 200);
  clock.advance(49);
  assert.equal(q.take(), undefined);
  clock.advance(1);
  assert.equal(q.take(), 'a');
  clock.advance(500);
  q.done('a');
  assert.equal(q.take(), undefined, 'the later due times were merged into the earliest');
});

test('addRateLimited backs off exponentially per key until forget', () => {
  const clock = new FakeClock();
  const q = new WorkQueue<string>(clock, () => undefined, { baseMs: 10, maxMs: 35 });
  const dueAfter = () => {
    let ms = 0;
    while (q.take() === undefined) {
      clock.advance(1);
      ms++;
    }
    q.done('k');
    return ms;
  };
  q.addRateLimited('k');
  assert.equal(dueAfter(), 10);
  q.addRateLimited('k');
  assert.equal(dueAfter(), 20);
  q.addRateLimited('k');
  assert.equal(dueAfter(), 35);
  q.forget('k');
  q.addRateLimited('k');
  assert.equal(dueAfter(), 10);
});

test('the reconciler survives a throwing reconcile and retries the key with backoff', async () => {
  const clock = new FakeClock();
  let calls = 0;
  const errors: unknown[] = [];
  const r = new Reconciler<string>(
    clock,
    async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    },
    { onError: (_k, e) => errors.push(e) },
  );
  r.start();
  r.enqueue('a');
  await r.idle();
  assert.equal(calls, 1);
  assert.equal(errors.length, 1);
  clock.advance(50);
  await r.idle();
  assert.equal(calls, 2);
});

test('requeueAfterMs runs the key again at that time', async () => {
  const clock = new FakeClock();
  const seen: number[] = [];
  const r = new Reconciler<string>(clock, async () => {
    seen.push(clock.now());
    return seen.length < 3 ? { requeueAfterMs: 1000 } : undefined;
  });
  r.start();
  r.enqueue('a');
  await r.idle();
  clock.advance(1000);
  await r.idle();
  clock.advance(1000);
  await r.idle();
  assert.deepEqual(seen.map((t) => t - seen[0]), [0, 1000, 2000]);
});

test('keys come out in the order they became ready, over many adds, takes and dones (model check)', () => {
  const q = new WorkQueue<number>(new FakeClock(), () => undefined);
  // The model: a FIFO of distinct ready keys, the keys in flight, and those added while in flight.
  const ready: number[] = [];
  const flight = new Set<number>();
  const dirty = new Set<number>();
  let seed = 11;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let step = 0; step < 20_000; step++) {
    const r = rnd();
    if (r < 0.5) {
      const key = Math.floor(rnd() * 3000);
      q.add(key);
      if (flight.has(key)) dirty.add(key);
      else if (!ready.includes(key)) ready.push(key);
    } else if (r < 0.8) {
      const expected = ready.shift();
      assert.equal(q.take(), expected, `step ${step}`);
      if (expected !== undefined) flight.add(expected);
    } else if (flight.size > 0) {
      const key = [...flight][Math.floor(rnd() * flight.size)];
      q.done(key);
      flight.delete(key);
      if (dirty.delete(key)) ready.push(key);
    }
    assert.equal(q.length, ready.length, `step ${step}`);
    assert.equal(q.inFlight, flight.size, `step ${step}`);
  }
});

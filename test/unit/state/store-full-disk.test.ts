import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { SvcError } from '../../../state/errors.js';
import { RuntimeStore } from '../../../state/runtime-store.js';
import { ProgramStore } from '../../../state/store.js';
import { faultyLevel } from '../../helpers/faulty-level.js';
import { processHarness } from '../../helpers/process-harness.js';

const refusal = async (p: Promise<unknown>): Promise<SvcError> => {
  try {
    await p;
  } catch (err) {
    return err as SvcError;
  }
  throw new Error('the write was accepted');
};

/** Lets promise chains started by a timer run to their end (no time passes). */
const drain = () => new Promise((r) => setImmediate(r));

void test('finding 2: after a failed write the store reopens the database before it writes again', async () => {
  const f = faultyLevel();
  const clock = new FakeClock();
  const store = await ProgramStore.fromDb(f.db, { clock });
  await store.create([{ name: 'a', command: 'x' }]);
  const opens = f.opens;
  f.fill(true);
  await refusal(store.create([{ name: 'b', command: 'x' }]));
  f.fill(false);
  await store.create([{ name: 'c', command: 'x' }]);
  assert.equal(f.unsafeWrites, 0, 'no write reached the database behind the failed one without a reopen');
  assert.ok(f.opens > opens, 'reopened');
  assert.deepEqual(store.list().map((r) => r.config.name).sort(), ['a', 'c']);
  await store.close();
});

void test('every program write is synced to disk before it is acknowledged', async () => {
  const f = faultyLevel();
  const store = await ProgramStore.fromDb(f.db, { clock: new FakeClock() });
  f.syncs.length = 0;
  const [a] = await store.create([{ name: 'a', command: 'x' }]);
  await store.update(a.id, (c) => ({ ...c, args: ['1'] }));
  await store.setIntents([a.id], (i) => ({ ...i, run: 'stopped' }));
  await store.setIntentsOrDefer([a.id], (i) => ({ ...i, run: 'running' }));
  await store.remove([a.id]);
  assert.deepEqual(f.syncs, [true, true, true, true, true]);
  await store.close();
});

void test('finding 3: on a full disk a write is a 507 that says so, and nothing changes', async () => {
  const f = faultyLevel();
  const store = await ProgramStore.fromDb(f.db, { clock: new FakeClock(), dir: '/srv/svc/data' });
  const [a] = await store.create([{ name: 'a', command: 'x' }]);
  const changes: string[][] = [];
  store.onChange((ids) => changes.push(ids));
  f.fill(true);
  for (const write of [
    store.create([{ name: 'b', command: 'x' }]),
    store.update(a.id, (c) => ({ ...c, args: ['1'] })),
    store.setIntents([a.id], (i) => ({ ...i, start_seq: i.start_seq + 1 })),
    store.remove([a.id]),
  ]) {
    const err = await refusal(write);
    assert.equal(err.code, 'SVC_NO_SPACE');
    assert.match(err.message, /^no space left on the data disk \(\/srv\/svc\/data\): the state store cannot record this change; free some space and retry$/);
  }
  assert.deepEqual(changes, []);
  assert.deepEqual(store.list(), [a]);
  const report = store.report();
  assert.equal(report.writable, false);
  assert.match(report.problem!, /no space left on the data disk/);
  f.fill(false);
  await store.close();
});

void test('finding 3: a stop on a full disk takes effect at once and is written when space returns', async () => {
  const f = faultyLevel();
  const h = await processHarness({ db: f.db });
  const id = await h.add({ name: 'filler' });
  assert.equal(h.status(id), 'Running');
  f.fill(true);
  const [outcome] = await h.actions.stop([h.store.get(id)!], false);
  assert.equal(h.status(id), 'Stopped');
  assert.equal(outcome.ok, true);
  assert.match(outcome.warning!, /^stopped, but not recorded on disk yet \(no space left on the data disk/);
  assert.equal(h.store.report().pending_intents, 1);
  // Space returns: the store's retry reopens it and writes the held intent.
  f.fill(false);
  await h.advance(1000);
  assert.equal(await h.store.meta.whenWritable!(), true);
  await h.store.create([{ name: 'after', command: 'x' }]); // queued behind the flush of held intents
  assert.equal(h.store.report().pending_intents, 0);
  assert.equal(h.store.report().writable, true);
  assert.equal(JSON.parse((await f.db.sublevel('programs').get(id))!).intent.run, 'stopped');
  await h.close();
});

void test('runtime records set while the disk is full are written once it has room', async () => {
  const f = faultyLevel();
  const clock = new FakeClock();
  const store = await ProgramStore.fromDb(f.db, { clock });
  const failures: unknown[] = [];
  const runtime = new RuntimeStore(store.meta, (err) => failures.push(err));
  f.fill(true);
  runtime.set('p1', { pid: 10, startTime: 1, startedAt: 2, stopsecs: 3 });
  await runtime.flush(); // resolves: it waits for room without holding up a flush
  assert.equal(failures.length, 1);
  f.fill(false);
  clock.advance(1000);
  await drain();
  await runtime.flush();
  assert.deepEqual([...(await runtime.loadAll()).keys()], ['p1']);
  await store.close();
});

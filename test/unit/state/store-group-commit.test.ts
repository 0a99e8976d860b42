import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { SvcError } from '../../../state/errors.js';
import { ProgramStore } from '../../../state/store.js';
import { faultyLevel } from '../../helpers/faulty-level.js';

/** Each promise's outcome, in order: the value or the error's code. */
const outcomes = (writes: Promise<unknown>[]) =>
  Promise.allSettled(writes).then((all) => all.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as SvcError).code)));

void test('writes that arrive while one is on its way to the disk share one synced batch, each with its own answer', async () => {
  const f = faultyLevel();
  const store = await ProgramStore.fromDb(f.db, { clock: new FakeClock() });
  f.syncs.length = 0;
  const names = Array.from({ length: 16 }, (_, i) => `p${i}`);
  const answers = await Promise.all(names.map((name) => store.create([{ name, command: 'x' }])));
  assert.deepEqual(
    answers.map(([r]) => r.config.name),
    names,
  );
  assert.deepEqual(store.list().map((r) => r.config.name).sort(), [...names].sort());
  assert.ok(f.syncs.length <= 2, `16 creates took ${f.syncs.length} synced batches`);
  assert.ok(f.syncs.every(Boolean), 'every batch is synced');
  await store.close();
});

void test('in one group each write is checked after the ones before it: a duplicate name is refused alone', async () => {
  const store = await ProgramStore.fromDb(faultyLevel().db, { clock: new FakeClock() });
  const [first] = await store.create([{ name: 'seed', command: 'x' }]);
  const results = await outcomes([
    store.create([{ name: 'a', command: 'x' }]),
    store.create([{ name: 'a', command: 'y' }]),
    store.create([{ name: 'db', command: 'x' }]),
    // Depends on a program created earlier in the same group.
    store.create([{ name: 'web', command: 'x', depends_on: ['db'] }]),
    store.update(first.id, (c) => ({ ...c, name: 'b' })),
    store.create([{ name: 'b', command: 'x' }]),
    store.create([{ name: 'late', command: 'x', depends_on: ['missing'] }]),
  ]);
  assert.deepEqual(results, ['ok', 'SVC_CONFLICT', 'ok', 'ok', 'ok', 'SVC_CONFLICT', 'SVC_INVALID']);
  assert.deepEqual(store.list().map((r) => r.config.name).sort(), ['a', 'b', 'db', 'web']);
  assert.equal(store.getByName('a')?.config.command, 'x');
  await store.close();
});

void test('a program created and removed in one group: the create answers its record, nothing is left', async () => {
  const f = faultyLevel();
  const store = await ProgramStore.fromDb(f.db, { clock: new FakeClock() });
  await store.create([{ name: 'keep', command: 'x' }]);
  const changes: string[][] = [];
  store.onChange((ids) => changes.push(ids));
  const create = store.create([{ name: 'brief', command: 'x' }]);
  const remove = create.then(([r]) => store.remove([r.id]));
  const other = store.create([{ name: 'other', command: 'x' }]);
  const [[brief]] = await Promise.all([create, other]);
  assert.equal(brief.config.name, 'brief');
  await remove;
  assert.deepEqual(store.list().map((r) => r.config.name).sort(), ['keep', 'other']);
  assert.ok(changes.flat().includes(brief.id), 'the change feed named the program');
  await store.close();
});

void test('a group the disk refuses is answered write by write: creates get the 507, a stop is held in memory', async () => {
  const f = faultyLevel();
  const store = await ProgramStore.fromDb(f.db, { clock: new FakeClock(), dir: '/srv/svc/data' });
  const [a] = await store.create([{ name: 'a', command: 'x' }]);
  f.fill(true);
  const create = store.create([{ name: 'b', command: 'x' }]);
  const stop = store.setIntentsOrDefer([a.id], (i) => ({ ...i, run: 'stopped' }));
  const start = store.setIntents([a.id], (i) => ({ ...i, start_seq: i.start_seq + 1 }));
  assert.deepEqual(await outcomes([create, stop, start]), ['SVC_NO_SPACE', 'ok', 'SVC_NO_SPACE']);
  const { records, deferred } = await stop;
  assert.equal(records[0].intent.run, 'stopped');
  assert.match(deferred!, /no space left on the data disk/);
  assert.equal(store.get(a.id)?.intent.run, 'stopped', 'the stop took effect in memory');
  assert.equal(store.get(a.id)?.intent.start_seq, a.intent.start_seq, 'the refused start changed nothing');
  assert.deepEqual(store.list().map((r) => r.config.name), ['a']);
  assert.equal(store.report().pending_intents, 1);
  f.fill(false);
  await store.close();
});

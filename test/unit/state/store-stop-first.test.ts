import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultyLevel } from '../../helpers/faulty-level.js';
import { processHarness } from '../../helpers/process-harness.js';

/** Lets promise chains run to their end (no time passes). */
const drain = () => new Promise((r) => setImmediate(r));

const runOnDisk = async (db: ReturnType<typeof faultyLevel>['db'], id: string): Promise<string> => (JSON.parse((await db.sublevel('programs').get(id))!) as { intent: { run: string } }).intent.run;

void test('a stop signals while its write is on its way to the disk, and is answered once the write is there', async () => {
  const f = faultyLevel();
  const h = await processHarness({ db: f.db });
  const id = await h.add({ name: 'web' });
  const pid = h.pidOf(id);
  f.slow();
  let answered = false;
  const stopping = h.actions.stop([h.store.get(id)!], false).then((outcomes) => {
    answered = true;
    return outcomes;
  });
  await h.settle();
  await drain();
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM'], 'signalled before the write reached the disk');
  assert.equal(h.status(id), 'Stopped');
  assert.ok(f.held > 0, 'the intent write is still on its way');
  assert.equal(answered, false, 'the answer waits for the disk');
  assert.equal(await runOnDisk(f.db, id), 'running');
  f.release();
  const [outcome] = await stopping;
  assert.equal(outcome.ok, true);
  assert.equal(outcome.warning, undefined);
  assert.equal(await runOnDisk(f.db, id), 'stopped');
  assert.equal(h.store.report().pending_intents, 0);
  await h.close();
});

void test('a stop whose write fails on an I/O error still takes effect, says so, and is written with the next write', async () => {
  const f = faultyLevel();
  const h = await processHarness({ db: f.db });
  const id = await h.add({ name: 'web' });
  f.failNext(new Error('IO error: the disk went away'));
  const [outcome] = await h.actions.stop([h.store.get(id)!], false);
  assert.equal(outcome.ok, true);
  assert.equal(h.status(id), 'Stopped');
  assert.match(outcome.warning!, /^stopped, but not recorded on disk yet \(.*the disk went away/);
  assert.equal(h.store.report().pending_intents, 1);
  await h.store.create([{ name: 'next', command: 'x' }]);
  assert.equal(h.store.report().pending_intents, 0);
  assert.equal(await runOnDisk(f.db, id), 'stopped');
  await h.close();
});

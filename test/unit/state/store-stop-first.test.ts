import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { FakeOs } from '../../../controllers/os/fake.js';
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

/**
 * svcd dies while a stop is on its way to the disk (docs/operations.md): the signal has left, the
 * disk still says running. The next svcd (same machine boot: a crash, every stored intent holds)
 * judges how each program ended as any exit while it was down.
 */
async function crashMidStop(ended: (os: FakeOs, pid: number, id: string) => FakeOs) {
  const f = faultyLevel();
  const os = new FakeOs();
  const h1 = await processHarness({ db: f.db, os, runtime: true, bootId: 'boot-1' });
  const id = await h1.add({ name: 'web' });
  const pid = h1.pidOf(id);
  os.ignoreTerm.add(pid); // a program that takes a moment to end after SIGTERM
  f.slow();
  void h1.actions.stop([h1.store.get(id)!], false);
  await h1.settle();
  await drain();
  assert.deepEqual(os.processes.get(pid)!.signals, ['SIGTERM']);
  // The disk as svcd left it: the stop's write never landed.
  const disk = new MemoryLevel<string, string>();
  for await (const [k, v] of f.db.iterator()) await disk.put(k, v);
  f.release();
  await h1.close();
  const h2 = await processHarness({ db: disk, os: ended(os, pid, id), runtime: true, bootId: 'boot-1' });
  await h2.settle();
  assert.equal(h2.store.get(id)!.intent.run, 'running', 'the disk still says running');
  return { h2, id, pid };
}

/** The program ends while svcd is down; the spawner kept its exit for the next svcd. */
const endedWith = (code: number | null, signal: number | null) => (os: FakeOs, pid: number, id: string) => {
  os.processes.get(pid)!.alive = false;
  const next = new FakeOs();
  next.recovered = { live: [], exited: [{ pid, startTime: pid * 10, startedAt: 0, tag: id, exit: { code, signal } }] };
  return next;
};

void test('svcd dies while a stop is on its way to the disk: a program the signal ended is judged as an exit while svcd was down; one still running is kept', async () => {
  {
    // Killed by SIGTERM: a crash, started again after its backoff.
    const { h2, id } = await crashMidStop(endedWith(null, 15));
    assert.equal(h2.status(id), 'Backoff');
    await h2.advance(60_000);
    assert.equal(h2.status(id), 'Running');
    await h2.close();
  }
  {
    // Exited 0 on SIGTERM (an expected exit, autorestart = unexpected): Exited, not started again.
    const { h2, id } = await crashMidStop(endedWith(0, null));
    assert.equal(h2.status(id), 'Exited');
    await h2.advance(60_000);
    assert.equal(h2.status(id), 'Exited');
    await h2.close();
  }
  {
    // Still ending (or ignoring SIGTERM): re-adopted, and it runs on.
    const { h2, id, pid } = await crashMidStop((os) => os);
    assert.equal(h2.status(id), 'Running');
    assert.equal(h2.pidOf(id), pid);
    await h2.close();
  }
});

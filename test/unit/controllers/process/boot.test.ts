import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../../helpers/process-harness.js';

/** Boot rules are a planner input (state/boot.ts), never a rewrite of stored intent. */

test('autostart controls boot-time start only: at boot a stopped program starts again unless autostart is false', async () => {
  const h1 = await processHarness();
  const on = await h1.add({ name: 'on' });
  const off = await h1.add({ name: 'off', autostart: false });
  await h1.actions.start([h1.store.get(off)!]);
  await h1.actions.stop([h1.store.get(on)!], false);
  assert.equal(h1.status(off), 'Running');
  await h1.actions.stop([h1.store.get(off)!], false);
  await h1.close();
  const h2 = await processHarness({ db: h1.db });
  await h2.settle();
  assert.equal(h2.status(on), 'Running', 'autostart (default true) starts it at boot');
  assert.equal(h2.status(off), 'Stopped', 'autostart false: not started at boot');
  assert.equal(h2.store.get(on)!.intent.run, 'stopped', 'stored intent is not rewritten');
  await h2.close();
});

test('an intent written after boot wins over the boot rule', async () => {
  const h1 = await processHarness();
  const id = await h1.add({ name: 'app' });
  await h1.close();
  const h2 = await processHarness({ db: h1.db });
  await h2.settle();
  await h2.actions.stop([h2.store.get(id)!], false);
  assert.equal(h2.status(id), 'Stopped');
  await h2.settle();
  assert.equal(h2.status(id), 'Stopped');
  await h2.close();
});

test('a process left by a killed daemon with no runtime record is adopted, never started twice', async () => {
  const h1 = await processHarness(); // runtime records off: as if none reached the disk
  const id = await h1.add({ name: 'web' });
  const pid = h1.pidOf(id);
  await h1.crash();
  const h2 = await processHarness({ db: h1.db, os: h1.os });
  await h2.settle();
  assert.equal(h2.pidOf(id), pid, 're-adopted by its SVC_PROGRAM_ID');
  assert.equal(h2.os.alive().length, 1, 'one process for one program');
  assert.equal(h2.os.spawnCount, 1);
  h2.os.exit(pid, 1);
  await h2.settle();
  assert.equal(h2.status(id), 'Backoff', 'its exit is observed and judged');
  await h2.close();
});

test('duplicate processes of one program and orphaned hooks are ended at start-up', async () => {
  const h1 = await processHarness();
  const id = await h1.add({ name: 'dup' });
  const first = h1.pidOf(id);
  const spec = h1.os.processes.get(first)!.spec;
  const copy = h1.os.leftover(spec);
  const hook = h1.os.leftover({ ...spec, env: { ...spec.env, SVC_HOOK: 'pre_start' } });
  await h1.crash();
  const h2 = await processHarness({ db: h1.db, os: h1.os });
  await h2.settle();
  assert.equal(h2.pidOf(id), first, 'the oldest process is the program');
  assert.equal(h2.os.processes.get(copy)!.alive, false);
  assert.equal(h2.os.processes.get(hook)!.alive, false);
  await h2.close();
});

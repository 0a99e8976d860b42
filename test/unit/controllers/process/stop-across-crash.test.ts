// A stop or restart svcd had begun when it crashed (state/runtime-store.ts `stopping`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../../helpers/process-harness.js';

test('a stop begun before a crash of svcd keeps its SIGKILL deadline: no second SIGTERM, no fresh stopsecs', async () => {
  const h1 = await processHarness({ runtime: true });
  const id = await h1.add({ name: 'stubborn', stopsecs: 10 });
  const pid = h1.pidOf(id);
  h1.os.ignoreTerm.add(pid);
  const t0 = h1.clock.now();
  await h1.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false }));
  await h1.settle();
  assert.equal(h1.status(id), 'Stopping');
  await h1.advance(6000);
  await h1.crash();
  const h2 = await processHarness({ db: h1.db, os: h1.os, runtime: true, now: t0 + 7000 });
  await h2.settle();
  assert.equal(h2.status(id), 'Stopping');
  assert.deepEqual(h2.os.processes.get(pid)!.signals, ['SIGTERM'], 'the stop goes on; it is not begun again');
  await h2.advance(3000); // t0 + 10 s: the first daemon's deadline
  assert.deepEqual(h2.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.equal(h2.status(id), 'Stopped');
  assert.equal(h2.observed.get(id).last_exit?.reason, 'stop');
  await h2.close();
});

test('a restart in flight at a crash of svcd still restarts the program, even when the old process exits 0', async () => {
  const h1 = await processHarness({ runtime: true });
  const id = await h1.add({ name: 'web', stopsecs: 10 });
  const pid = h1.pidOf(id);
  h1.os.ignoreTerm.add(pid);
  await h1.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  await h1.settle();
  assert.equal(h1.status(id), 'Stopping');
  await h1.crash();
  const h2 = await processHarness({ db: h1.db, os: h1.os, runtime: true, now: h1.clock.now() + 1000 });
  await h2.settle();
  h2.os.exit(pid, 0); // a graceful exit after the SIGTERM: expected, so no restart policy would act
  await h2.settle();
  assert.equal(h2.status(id), 'Running');
  assert.notEqual(h2.pidOf(id), pid, 'a new process');
  assert.equal(h2.observed.get(id).last_exit?.reason, 'restart');
  await h2.close();
});

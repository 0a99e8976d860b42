// Backoff and Fatal across a crash of svcd (state/supervision-store.ts, docs/states.md "Daemon restarts").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../helpers/process-harness.js';

const BOOT = 'boot-1';

/** svcd started again over the same store and processes (after h1 crashed or shut down), its first passes done. */
async function restarted(h1: Pick<Awaited<ReturnType<typeof processHarness>>, 'db' | 'os'>, bootId = BOOT) {
  const h = await processHarness({ db: h1.db, os: h1.os, bootId });
  await h.settle();
  return h;
}

async function fatalThenCrash() {
  const h1 = await processHarness({ bootId: BOOT });
  const id = await h1.add({ name: 'doomed', retry_limit: 0 });
  h1.os.exit(h1.pidOf(id), 3);
  await h1.settle();
  assert.equal(h1.status(id), 'Fatal');
  await h1.crash();
  return { h1, id };
}

test('a Fatal program is Fatal again after a crash of svcd, with its last exit; a start clears it', async () => {
  const { h1, id } = await fatalThenCrash();
  const h = await restarted(h1);
  assert.equal(h.status(id), 'Fatal');
  assert.equal(h.observed.get(id).last_exit?.exit_code, 3);
  assert.equal(h.os.spawnCount, 1, 'not started again by the boot rules');
  await h.actions.start([h.store.get(id)!]);
  assert.equal(h.status(id), 'Running');
  await h.crash();
  const h3 = await restarted(h1);
  assert.notEqual(h3.status(id), 'Fatal', 'the start ended the Fatal record');
  await h3.close();
});

test('a program in Backoff keeps its retry count and waits for its retry after a crash of svcd', async () => {
  const h1 = await processHarness({ bootId: BOOT });
  const id = await h1.add({ name: 'flaky', retry_limit: 2, backoff_secs: 60 });
  h1.os.exit(h1.pidOf(id), 1);
  await h1.settle();
  assert.equal(h1.status(id), 'Backoff');
  const retryAt = h1.observed.get(id).next_retry_at!;
  await h1.crash();
  const h = await restarted(h1);
  assert.equal(h.status(id), 'Backoff');
  assert.equal(h.observed.get(id).retries, 1);
  assert.equal(h.observed.get(id).next_retry_at, retryAt);
  assert.equal(h.os.spawnCount, 1);
  await h.advance(retryAt - h.clock.now());
  assert.equal(h.status(id), 'Running');
  assert.equal(h.observed.get(id).retries, 1, 'the retry count goes on from where it was');
  await h.close();
});

test('another machine boot or a graceful shutdown starts programs afresh (the boot rules)', async () => {
  const { h1, id } = await fatalThenCrash();
  const rebooted = await restarted(h1, 'boot-2');
  assert.equal(rebooted.status(id), 'Running', 'a reboot is a boot');
  rebooted.os.exit(rebooted.pidOf(id), 3);
  await rebooted.settle();
  assert.equal(rebooted.status(id), 'Fatal');
  await rebooted.shutdown();
  // The record is still on disk: only the live marker tells a crash from a graceful shutdown.
  await h1.db.open();
  assert.ok((await h1.db.keys().all()).some((k) => k.endsWith(`sup:${id}`)), 'the Fatal record outlives the shutdown');
  await h1.db.close();
  const after = await restarted(h1, 'boot-2');
  assert.equal(after.status(id), 'Running', 'a graceful shutdown ends supervision: autostart runs it again');
  await after.close();
});

test('an autostart = false program started by hand and in Backoff still retries after a crash of svcd (a crash is not a boot)', async () => {
  const h1 = await processHarness({ bootId: BOOT });
  const id = await h1.add({ name: 'manual', autostart: false, backoff_secs: 60 });
  await h1.actions.start([h1.store.get(id)!]);
  h1.os.exit(h1.pidOf(id), 1);
  await h1.settle();
  assert.equal(h1.status(id), 'Backoff');
  const retryAt = h1.observed.get(id).next_retry_at!;
  await h1.crash();
  const h = await restarted(h1);
  assert.equal(h.status(id), 'Backoff', 'the boot rule (autostart = false: stopped) does not apply');
  await h.advance(retryAt - h.clock.now());
  assert.equal(h.status(id), 'Running');
  assert.equal(h.os.spawnCount, 2);
  await h.close();
});

test('a program that Exited (its expected exit: a one-shot job done) is not run again after a crash of svcd; a graceful restart runs it (the boot rules)', async () => {
  const h1 = await processHarness({ bootId: BOOT });
  const id = await h1.add({ name: 'migrate' });
  h1.os.exit(h1.pidOf(id), 0);
  await h1.settle();
  assert.equal(h1.status(id), 'Exited');
  await h1.crash();
  const h = await restarted(h1);
  assert.equal(h.status(id), 'Exited');
  assert.equal(h.observed.get(id).last_exit?.exit_code, 0);
  assert.equal(h.os.spawnCount, 1, 'not run a second time');
  await h.shutdown();
  const after = await restarted(h1);
  assert.equal(after.status(id), 'Running', 'a graceful shutdown ends supervision: autostart runs it again');
  await after.close();
});

test('a program an operator stopped stays stopped after a crash of svcd; a graceful restart or another machine boot starts it (autostart)', async () => {
  const h1 = await processHarness({ bootId: BOOT });
  const id = await h1.add({ name: 'web' });
  await h1.actions.stop([h1.store.get(id)!], false);
  assert.equal(h1.status(id), 'Stopped');
  await h1.crash();
  const h2 = await restarted(h1);
  assert.equal(h2.status(id), 'Stopped', 'a crash is not a boot: the stop holds');
  assert.equal(h2.os.spawnCount, 1);
  await h2.shutdown();
  const h3 = await restarted(h1);
  assert.equal(h3.status(id), 'Running', 'after a graceful shutdown the boot rules start it');
  await h3.actions.stop([h3.store.get(id)!], false);
  await h3.crash();
  const h4 = await processHarness({ db: h1.db, bootId: 'boot-2' }); // another machine boot: a fresh OS
  await h4.settle();
  assert.equal(h4.status(id), 'Running', 'another machine boot: the boot rules start it');
  await h4.close();
});

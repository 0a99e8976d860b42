import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../../helpers/process-harness.js';

/** Stop order, shutdown, restart requests and hooks: how the process controller coordinates
 * through conditions and gates instead of calls (docs/architecture.md). */

test('one stop intent for a chain stops dependants first: db waits while api is alive', async () => {
  const h = await processHarness();
  const db = await h.add({ name: 'db' });
  const api = await h.add({ name: 'api', depends_on: ['db'], stopsecs: 5 });
  const apiPid = h.pidOf(api);
  h.os.ignoreTerm.add(apiPid);
  await h.store.setIntents([db, api], (i) => ({ ...i, run: 'stopped', force: false }));
  await h.settle();
  assert.equal(h.status(api), 'Stopping');
  assert.equal(h.status(db), 'Running', 'db stops after its dependant');
  assert.match(h.observed.get(db).detail ?? '', /stops after api/);
  assert.deepEqual(h.os.processes.get(h.pidOf(db))!.signals, []);
  await h.advance(5000); // api ignores SIGTERM: SIGKILL at stopsecs, then db's turn
  assert.equal(h.status(api), 'Stopped');
  assert.equal(h.status(db), 'Stopped');
  await h.close();
});

test('stop order converges across a daemon crash half-way (level-triggered)', async () => {
  const h1 = await processHarness({ runtime: true });
  const db = await h1.add({ name: 'db' });
  const api = await h1.add({ name: 'api', depends_on: ['db'] });
  const [dbPid, apiPid] = [h1.pidOf(db), h1.pidOf(api)];
  h1.os.ignoreTerm.add(apiPid);
  await h1.store.setIntents([db, api], (i) => ({ ...i, run: 'stopped', force: false }));
  await h1.settle();
  assert.equal(h1.status(api), 'Stopping');
  await h1.crash(); // the daemon dies before api has stopped; db was never signalled
  const h2 = await processHarness({ db: h1.db, os: h1.os, runtime: true });
  await h2.settle();
  // The new daemon re-adopts both and converges to the stored intent in the same order.
  assert.equal(h2.status(api), 'Stopping');
  assert.equal(h2.status(db), 'Running');
  h2.os.signal(apiPid, 'SIGKILL', true);
  await h2.settle();
  assert.equal(h2.status(db), 'Stopped');
  assert.equal(h2.os.processes.get(dbPid)!.alive, false);
  await h2.close();
});

test('daemon shutdown is a condition: dependants first, then descending priority; stored intent untouched', async () => {
  const h = await processHarness();
  const low = await h.add({ name: 'low', priority: 10 });
  const high = await h.add({ name: 'high', priority: 900 });
  const highPid = h.pidOf(high);
  h.os.ignoreTerm.add(highPid);
  h.observed.beginShutdown();
  await h.settle();
  assert.equal(h.status(high), 'Stopping', 'highest priority number stops first');
  assert.equal(h.status(low), 'Running');
  h.os.exit(highPid, 0);
  await h.settle();
  assert.equal(h.status(low), 'Stopped');
  assert.equal(h.store.get(low)!.intent.run, 'running', 'the next boot starts it again');
  await h.close();
});

test('a planned restart request for the live pid restarts it without counting a retry; a stale one is ignored', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'app' });
  const first = h.pidOf(id);
  h.observed.requestRestart(id, 'ota', { pid: first, reason: 'new binary', planned: true });
  await h.settle();
  assert.notEqual(h.pidOf(id), first);
  assert.equal(h.status(id), 'Running');
  assert.equal(h.observed.get(id).restarts, 0);
  const second = h.pidOf(id);
  await h.settle();
  assert.equal(h.pidOf(id), second, 'the request named the old pid: no second restart');
  await h.close();
});

test('a health restart request goes through the restart policy (counted, backoff)', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'sick' });
  h.observed.requestRestart(id, 'health', { pid: h.pidOf(id), reason: 'failing health check', planned: false });
  await h.settle();
  assert.equal(h.status(id), 'Backoff');
  assert.equal(h.observed.get(id).last_exit!.reason, 'health');
  assert.equal(h.observed.get(id).restarts, 1);
  await h.close();
});

test('a pre_start hook runs outside the reconcile pass: a stop is handled while it runs', async () => {
  const h = await processHarness();
  h.os.holdHooks = true;
  const id = await h.add({ name: 'slow', hooks: { pre_start: 'migrate' } });
  assert.equal(h.status(id), 'Starting');
  assert.match(h.observed.get(id).detail ?? '', /pre_start hook running/);
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false }));
  await h.settle();
  assert.equal(h.status(id), 'Stopped', 'the key was not blocked by the hook');
  h.os.releaseHooks();
  await h.settle();
  assert.equal(h.os.spawnCount, 0, 'the abandoned attempt does not spawn');
  await h.close();
});

test('a pre_start hook that finishes wakes the key and the program starts', async () => {
  const h = await processHarness();
  h.os.holdHooks = true;
  const id = await h.add({ name: 'later', hooks: { pre_start: 'migrate' } });
  assert.equal(h.os.spawnCount, 0);
  h.os.releaseHooks();
  await h.settle();
  assert.equal(h.status(id), 'Running');
  await h.close();
});

test('a restart waits for the previous run\'s post_stop hook', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'cleanup', hooks: { post_stop: 'tidy' } });
  h.os.holdHooks = true;
  await h.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  await h.settle();
  assert.equal(h.os.spawnCount, 1, 'not restarted while post_stop runs');
  h.os.releaseHooks();
  await h.settle();
  assert.equal(h.status(id), 'Running');
  assert.equal(h.os.spawnCount, 2);
  await h.close();
});

test('a batch stop waits for the runs of a cron job that depends on the program (the cron controller reports them)', async () => {
  const h = await processHarness();
  const db = await h.add({ name: 'db' });
  const report = await h.add({ name: 'report', cron: '0 3 * * *', depends_on: ['db'] });
  h.observed.update(report, { status: 'Running' }); // a run in flight, as the cron controller publishes it
  await h.store.setIntents([db, report], (i) => ({ ...i, run: 'stopped', force: false }));
  h.observed.update(report, { status: 'Stopping' }); // the cron controller stops the run
  await h.settle();
  assert.equal(h.status(db), 'Running', 'db waits for the run of its dependant');
  assert.equal(h.observed.get(db).detail, 'stops after report');
  h.observed.update(report, { status: 'Stopped' });
  await h.settle();
  assert.equal(h.status(db), 'Stopped');
  await h.close();
});

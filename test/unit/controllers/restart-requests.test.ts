import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../helpers/process-harness.js';

test('a planned restart request for the live pid restarts it like a user restart (not counted)', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'web' });
  const old = h.pidOf(id);
  h.observed.update(id, { restart_requests: { ota: { pid: old, reason: 'binary swapped', planned: true } } });
  h.reconciler.enqueue(id);
  await h.settle();
  assert.deepEqual(h.os.processes.get(old)!.signals, ['SIGTERM']);
  assert.equal(h.status(id), 'Running');
  assert.notEqual(h.pidOf(id), old);
  const o = h.observed.get(id);
  assert.equal(o.last_exit?.reason, 'restart');
  assert.equal(o.restarts, 0, 'a planned restart is not a restart by policy');
  assert.equal(o.retries, 0);
  // The request still names the old pid: it is never acted on twice.
  const pid = h.pidOf(id);
  h.reconciler.enqueue(id);
  await h.settle();
  assert.equal(h.pidOf(id), pid);
  await h.close();
});

test('a restart request for another pid, or an unplanned one, changes nothing', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'web' });
  const pid = h.pidOf(id);
  h.observed.update(id, { restart_requests: { ota: { pid: pid + 1, reason: 'stale', planned: true }, other: { pid, reason: 'unplanned', planned: false } } });
  h.reconciler.enqueue(id);
  await h.settle();
  assert.equal(h.pidOf(id), pid);
  assert.deepEqual(h.os.processes.get(pid)!.signals, []);
  await h.close();
});

// The process controller's existing adopt path, given an OS port that kept an exit across the
// restart (OsPort.recover + startTimeOf + watchAdopted): the real exit code reaches the policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../helpers/process-harness.js';

async function adoptEnded(code: number, extra: Record<string, unknown> = {}) {
  const h = await processHarness({ startLoop: false }); // as svcd's boot: adopt, then run the loop
  const [record] = await h.store.create([{ command: 'app', name: 'x', ...extra }]);
  const id = record.id;
  h.os.recovered = { live: [], exited: [{ pid: 4242, startTime: 42420, startedAt: 1, tag: id, exit: { code, signal: null } }] };
  assert.equal(h.controller.adopt(id, { pid: 4242, startTime: 42420, startedAt: 0, stopsecs: 1 }), true);
  h.reconciler.start();
  await h.settle();
  return { h, id };
}

test('a process that exited 0 while the daemon was down is Exited, not restarted', async () => {
  const { h, id } = await adoptEnded(0);
  assert.equal(h.status(id), 'Exited');
  assert.equal(h.observed.get(id).last_exit?.exit_code, 0);
  assert.equal(h.os.spawnCount, 0);
  await h.close();
});

test('a process that crashed while the daemon was down is judged by its real exit code', async () => {
  const { h, id } = await adoptEnded(3, { retry_limit: 0 });
  assert.equal(h.status(id), 'Fatal');
  assert.equal(h.observed.get(id).last_exit?.exit_code, 3);
  await h.close();
});

test('a kept exit is reported once: a second adopt of the same process is refused', async () => {
  const { h, id } = await adoptEnded(0);
  assert.equal(h.os.startTimeOf(4242), null);
  assert.equal(h.controller.adopt(id, { pid: 4242, startTime: 42420, startedAt: 0, stopsecs: 1 }), false);
  await h.close();
});

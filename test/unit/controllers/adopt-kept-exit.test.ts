// A process that ended while no daemon watched, whose exit the OS port kept (the spawner):
// the next daemon re-adopts it and the real exit code reaches the restart policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processHarness } from '../../helpers/process-harness.js';

async function endedWhileDown(code: number, extra: Record<string, unknown> = {}, recorded = true) {
  const h1 = await processHarness({ runtime: recorded });
  const id = await h1.add({ name: 'x', ...extra });
  const pid = h1.pidOf(id);
  await h1.crash();
  h1.os.processes.get(pid)!.alive = false; // ended with nobody watching; the spawner kept it
  h1.os.recovered = { live: [], exited: [{ pid, startTime: pid * 10, startedAt: 1, tag: id, exit: { code, signal: null } }] };
  const h = await processHarness({ db: h1.db, os: h1.os, runtime: recorded });
  await h.settle();
  return { h, id };
}

test('a process that exited 0 while the daemon was down is Exited, not restarted', async () => {
  const { h, id } = await endedWhileDown(0);
  assert.equal(h.status(id), 'Exited');
  assert.equal(h.observed.get(id).last_exit?.exit_code, 0);
  assert.equal(h.os.spawnCount, 1, 'only the first daemon spawned');
  await h.close();
});

test('a process that crashed while the daemon was down is judged by its real exit code', async () => {
  const { h, id } = await endedWhileDown(3, { retry_limit: 0 });
  assert.equal(h.status(id), 'Fatal');
  assert.equal(h.observed.get(id).last_exit?.exit_code, 3);
  await h.close();
});

test('a kept exit is timed when it ended, not when the next daemon read it', async () => {
  const h1 = await processHarness();
  const id = await h1.add({ name: 'x' });
  const pid = h1.pidOf(id);
  await h1.crash();
  h1.os.processes.get(pid)!.alive = false;
  // It started 10 s before the next daemon came up and ran for 1.5 s.
  const now = h1.clock.now();
  h1.os.recovered = { live: [], exited: [{ pid, startTime: pid * 10, startedAt: now - 10_000, tag: id, exit: { code: 0, signal: null, endedAt: now - 8_500 } }] };
  const h = await processHarness({ db: h1.db, os: h1.os });
  await h.settle();
  const last = h.observed.get(id).last_exit!;
  assert.equal(last.at, now - 8_500);
  assert.equal(last.duration_ms, 1_500);
  await h.close();
});

test('with no runtime record on disk, the kept exit is still found by its tag', async () => {
  const { h, id } = await endedWhileDown(0, {}, false);
  assert.equal(h.status(id), 'Exited');
  await h.close();
});

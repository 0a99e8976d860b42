import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEST, otaHarness, URL_V2, V1, V2 } from '../../../helpers/ota-harness.js';
import { fakeArchive, sha } from '../../../helpers/ota-fakes.js';

/**
 * svcd killed (-9) while a step is in flight: the step never finishes, new controllers start over
 * the same store, files and live processes. At every persisted step the destination holds v1 or
 * v2 (never missing, never partial) and the update completes.
 */
const traps = [
  { phase: 'downloading', at: 'a stalled transfer', set: (h: Harness) => h.downloader.serve(URL_V2, { stall: true }) },
  { phase: 'verifying', at: 'the digest check', set: (h: Harness) => h.fs.hangOn('stat', '.download', 'before') },
  { phase: 'backing_up', at: 'the hard link made', set: (h: Harness) => h.fs.hangOn('link', DEST, 'after') },
  { phase: 'swapping', at: 'the backup committed', set: (h: Harness) => h.fs.hangOn('rename', '.backup-next', 'after') },
  { phase: 'swapping', at: 'the payload renamed', set: (h: Harness) => h.fs.hangOn('rename', '.staged', 'after') },
  { phase: 'swapping', at: 'the payload about to be renamed', set: (h: Harness) => h.fs.hangOn('rename', '.staged', 'before') },
];
type Harness = Awaited<ReturnType<typeof otaHarness>>;

for (const trap of traps) {
  test(`daemon killed while ${trap.phase} (${trap.at}) resumes to applied`, async () => {
    const h = await otaHarness();
    const id = await h.add();
    h.downloader.serve(URL_V2, { body: V2 });
    trap.set(h);
    await h.want(id, sha(V2));
    assert.equal(h.record(id)?.phase, trap.phase);
    assert.ok([V1, V2].includes(h.fs.read(DEST)!), 'the destination is v1 or v2');
    h.downloader.serve(URL_V2, { body: V2 });
    await h.restartDaemon();
    await h.advance(1000);
    assert.equal(h.ota(id)?.last?.result, 'applied', JSON.stringify(h.ota(id)));
    assert.equal(h.fs.read(DEST), V2);
    assert.equal(h.fs.read(`${DEST}.svc-backup`), V1);
    assert.deepEqual(h.fs.meta(DEST), { mode: 0o750, uid: 42, gid: 43 });
    assert.deepEqual(h.fs.temps(), []);
    assert.notEqual(h.observed.get(id).started_at, null);
    await h.close();
  });
}

test('daemon killed while extracting resumes from the verified download', async () => {
  const h = await otaHarness();
  const id = await h.add({ extract: true });
  const archive = fakeArchive([{ path: 'app', kind: 'file', content: V2 }]);
  h.downloader.serve(URL_V2, { body: archive });
  h.fs.hangOn('remove', '.download', 'before'); // extracted, the download not yet removed
  await h.want(id, sha(archive));
  assert.equal(h.record(id)?.phase, 'extracting');
  await h.restartDaemon();
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.equal(h.fs.read(DEST), V2);
  await h.close();
});

test('daemon killed while restarting: the adopted old process is still restarted', async () => {
  const h = await otaHarness();
  const id = await h.add();
  const old = h.pid(id)!;
  h.os.ignoreTerm.add(old); // stays Stopping until SIGKILL after stopsecs
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  assert.equal(h.record(id)?.phase, 'restarting');
  assert.equal(h.status(id), 'Stopping');
  await h.restartDaemon();
  assert.equal(h.pid(id), old, 'adopted');
  await h.advance(10_000);
  assert.notEqual(h.pid(id), old);
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();
});

test('daemon killed while validating: validation goes on with a fresh window', async () => {
  const h = await otaHarness();
  const id = await h.add({}, { startsecs: 20 });
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  const pid = h.pid(id);
  await h.advance(10_000);
  assert.equal(h.record(id)?.phase, 'validating');
  await h.restartDaemon();
  assert.equal(h.pid(id), pid);
  await h.advance(10_000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();
});

test('daemon killed while validating and the new process died meanwhile: the next one is validated', async () => {
  const h = await otaHarness();
  const id = await h.add({}, { startsecs: 20 });
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  h.os.signal(h.pid(id)!, 'SIGKILL', true);
  // (the old daemon never sees the exit)
  await h.restartDaemon();
  assert.equal(h.record(id)?.phase, 'validating');
  await h.settle();
  await h.advance(20_000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();
});

for (const when of ['before', 'after'] as const) {
  test(`daemon killed while rolling back (${when} the rename) resumes the rollback`, async () => {
    const h = await otaHarness();
    const id = await h.add();
    h.downloader.serve(URL_V2, { body: V2 });
    await h.want(id, sha(V2));
    h.fs.hangOn('rename', '.svc-backup', when);
    h.os.exit(h.pid(id)!, 1);
    await h.settle();
    assert.equal(h.record(id)?.phase, 'rolling_back');
    assert.equal(h.fs.read(DEST), when === 'before' ? V2 : V1);
    await h.restartDaemon();
    assert.equal(h.ota(id)?.last?.result, 'rolled_back');
    assert.equal(h.fs.read(DEST), V1);
    assert.equal(h.ota(id)?.rejected, sha(V2));
    await h.close();
  });
}

test('daemon killed in retry_wait: the next attempt comes at the persisted time', async () => {
  const h = await otaHarness();
  const id = await h.add();
  h.downloader.serve(URL_V2, { error: 'HTTP 503 Service Unavailable' });
  await h.want(id, sha(V2));
  const due = h.record(id)!.next_attempt_at!;
  h.downloader.serve(URL_V2, { body: V2 });
  await h.advance(4_000);
  await h.restartDaemon();
  assert.equal(h.record(id)?.phase, 'retry_wait');
  await h.advance(due - h.clock.now() - 1);
  assert.equal(h.downloader.requests.length, 1);
  await h.advance(1);
  assert.equal(h.downloader.requests.length, 2);
  assert.equal(h.fs.read(DEST), V2);
  await h.close();
});

test('an unreadable status record is ignored: the destination is inspected afresh', async () => {
  const h = await otaHarness();
  const id = await h.add();
  await h.store.meta.put(`status:ota:${id}`, '{"phase":"bogus"}');
  await h.restartDaemon();
  assert.match(h.warnings.join('\n'), /unreadable status record/);
  assert.equal(h.ota(id)?.installed, sha(V1));
  assert.equal(h.ota(id)?.phase, 'idle');
  await h.close();
});

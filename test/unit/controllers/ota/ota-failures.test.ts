import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEST, otaHarness, URL_V2, V1, V2 } from '../../../helpers/ota-harness.js';
import { fakeArchive, sha } from '../../../helpers/ota-fakes.js';
import { otaSummary } from '../../../../tui/client/ota-format.js';

const TCP_CHECK = { type: 'tcp' as const, port: 7000, interval_secs: 1, failure_threshold: 2 };

test('download error: retried after 10 s, 20 s, then given up (max_attempts 3) until the checksum changes', async () => {
  const h = await otaHarness();
  const id = await h.add();
  const pid = h.pid(id);
  h.downloader.serve(URL_V2, { error: 'connect ECONNREFUSED 127.0.0.1:1' });
  await h.want(id, sha(V2));
  assert.equal(h.ota(id)?.phase, 'retry_wait');
  assert.equal(h.ota(id)?.last?.result, 'retrying');
  assert.equal(h.ota(id)?.next_attempt_at, h.clock.now() + 10_000);
  await h.advance(9_999);
  assert.equal(h.downloader.requests.length, 1);
  await h.advance(1);
  assert.equal(h.downloader.requests.length, 2);
  await h.advance(20_000);
  assert.equal(h.downloader.requests.length, 3);
  assert.equal(h.ota(id)?.phase, 'idle');
  assert.equal(h.ota(id)?.last?.result, 'failed');
  assert.equal(h.ota(id)?.rejected, sha(V2));
  assert.match(h.ota(id)!.last!.reason, /download failed: connect ECONNREFUSED.*attempt 3 of 3/);
  await h.advance(3_600_000);
  assert.equal(h.downloader.requests.length, 3, 'no retry storm');
  assert.equal(h.fs.read(DEST), V1);
  assert.equal(h.pid(id), pid);
  assert.deepEqual(h.fs.temps(), []);
  assert.deepEqual(h.types(), ['ota_started', 'ota_failed', 'ota_failed', 'ota_failed']);
  // A new checksum is tried again.
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2 + 'x'), { source: URL_V2 });
  assert.equal(h.downloader.requests.length, 4);
  await h.close();
});

test('download timeout: the transfer is cut at download_timeout and counts as a failed attempt', async () => {
  const h = await otaHarness();
  const id = await h.add({ download_timeout: 5 });
  h.downloader.serve(URL_V2, { stall: true });
  await h.want(id, sha(V2));
  assert.equal(h.ota(id)?.phase, 'downloading');
  assert.equal(h.downloader.requests[0].timeoutMs, 5000);
  await h.advance(5000);
  assert.equal(h.ota(id)?.phase, 'retry_wait');
  assert.match(h.ota(id)!.last!.reason, /download_timeout \(5 s\) exceeded/);
  await h.close();
});

test('a download in progress shows how far it has come, published at most once a second, and not after it ends', async () => {
  const h = await otaHarness();
  const id = await h.add({ download_timeout: 60 });
  h.downloader.serve(URL_V2, { stall: true, total: 4 * 1024 * 1024 });
  await h.want(id, sha(V2));
  assert.equal(h.ota(id)?.phase, 'downloading');
  assert.equal(h.ota(id)?.download, null, 'nothing received yet');
  h.downloader.feed(1024 * 1024);
  await h.settle();
  assert.equal(h.ota(id)?.download, null, 'less than a second since the download began: not published yet');
  await h.advance(1000);
  h.downloader.feed(2 * 1024 * 1024);
  await h.settle();
  assert.deepEqual(h.ota(id)?.download, { received_bytes: 2 * 1024 * 1024, total_bytes: 4 * 1024 * 1024 });
  assert.match(otaSummary(h.ota(id)!), /^downloading 2\.0 MiB of 4\.0 MiB \(50%\) {3}installed: /);
  h.downloader.feed(3 * 1024 * 1024);
  await h.settle();
  assert.equal(h.ota(id)?.download?.received_bytes, 2 * 1024 * 1024, 'within the second: held back');
  await h.advance(59_000); // download_timeout
  assert.equal(h.ota(id)?.phase, 'retry_wait');
  assert.equal(h.ota(id)?.download, null);
  await h.close();
});

test('checksum mismatch changes nothing: destination, pid, no temp file; the event names both digests', async () => {
  const h = await otaHarness();
  const id = await h.add();
  const pid = h.pid(id);
  h.downloader.serve(URL_V2, { body: 'corrupted bytes' });
  await h.want(id, sha(V2));
  assert.equal(h.fs.read(DEST), V1);
  assert.deepEqual(h.fs.meta(DEST), { mode: 0o750, uid: 42, gid: 43 });
  assert.equal(h.pid(id), pid);
  assert.deepEqual(h.fs.temps(), []);
  assert.equal(h.fs.read(`${DEST}.svc-backup`), undefined, 'no backup taken');
  const [msg] = h.msgs('ota_failed');
  assert.match(msg, new RegExp(`checksum mismatch: expected ${sha(V2)}, got ${sha('corrupted bytes')}`));
  assert.equal(h.ota(id)?.installed, sha(V1));
  await h.close();
});

test('an archive with a link, a `..` entry or no payload is refused at once (no retries)', async () => {
  const cases = [
    { entries: [{ path: 'app', kind: 'symlink' as const }], why: /'app' is a symbolic link/ },
    { entries: [{ path: '../app', kind: 'file' as const, content: V2 }], why: /refers outside the archive/ },
    { entries: [{ path: '/usr/bin/app', kind: 'file' as const, content: V2 }], why: /absolute path/ },
    { entries: [{ path: 'dev', kind: 'device' as const }, { path: 'app', kind: 'file' as const, content: V2 }], why: /device or special file/ },
    { entries: [{ path: 'a', kind: 'file' as const, content: '1' }, { path: 'b', kind: 'file' as const, content: '2' }], why: /2 files and none is named 'app'/ },
  ];
  for (const c of cases) {
    const h = await otaHarness();
    const id = await h.add({ extract: true });
    const archive = fakeArchive(c.entries);
    h.downloader.serve(URL_V2, { body: archive });
    await h.want(id, sha(archive));
    assert.equal(h.ota(id)?.phase, 'idle');
    assert.equal(h.ota(id)?.last?.result, 'failed');
    assert.match(h.ota(id)!.last!.reason, c.why);
    assert.equal(h.ota(id)?.rejected, sha(archive));
    assert.equal(h.fs.read(DEST), V1);
    assert.deepEqual(h.fs.temps(), []);
    assert.equal(h.downloader.requests.length, 1);
    await h.close();
  }
});

test('the extraction size cap refuses the archive', async () => {
  const h = await otaHarness({ maxExtractBytes: 4 });
  const id = await h.add({ extract: true });
  const archive = fakeArchive([{ path: 'app', kind: 'file', content: V2 }]);
  h.downloader.serve(URL_V2, { body: archive });
  await h.want(id, sha(archive));
  assert.match(h.ota(id)!.last!.reason, /more than ota.max_extract_bytes \(4\)/);
  await h.close();
});

test('swap failure: the destination is untouched and the attempt is retried', async () => {
  const h = await otaHarness();
  const id = await h.add();
  h.downloader.serve(URL_V2, { body: V2 });
  h.fs.failOn('rename', '.staged', 'EACCES: permission denied');
  await h.want(id, sha(V2));
  assert.equal(h.fs.read(DEST), V1);
  assert.equal(h.ota(id)?.phase, 'retry_wait');
  assert.match(h.ota(id)!.last!.reason, /swap failed: EACCES/);
  assert.equal(h.ota(id)?.backup, sha(V1), 'the backup was committed before the rename failed');
  await h.advance(10_000);
  assert.equal(h.fs.read(DEST), V2);
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();
});

test('crash after swap: the new binary exits at once -> rolled back, restarted, not retried', async () => {
  const h = await otaHarness();
  const id = await h.add();
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  const bad = h.pid(id)!;
  h.os.exit(bad, 1);
  await h.settle();
  assert.equal(h.fs.read(DEST), V1);
  assert.deepEqual(h.fs.meta(DEST), { mode: 0o750, uid: 42, gid: 43 });
  assert.equal(h.ota(id)?.last?.result, 'rolled_back');
  assert.match(h.ota(id)!.last!.reason, /exited during validation: crashed: exit code 1/);
  assert.equal(h.ota(id)?.installed, sha(V1));
  assert.equal(h.ota(id)?.rejected, sha(V2));
  assert.equal(h.ota(id)?.backup, null);
  await h.advance(60_000);
  assert.equal(h.status(id), 'Running', 'the backoff retry runs the restored binary');
  assert.equal(h.downloader.requests.length, 1, 'the rolled-back checksum is not tried again');
  assert.deepEqual(h.types(), ['ota_started', 'ota_swapped', 'ota_failed', 'ota_rolled_back']);
  await h.close();
});

test('health failure after the swap: Unhealthy -> rollback and a restart into the old binary', async () => {
  const h = await otaHarness();
  const id = await h.add({}, { health_check: TCP_CHECK });
  await h.advance(1000);
  h.downloader.serve(URL_V2, { body: V2 });
  h.probes.set(7000, { ok: false, message: 'connect ECONNREFUSED' });
  await h.want(id, sha(V2));
  const bad = h.pid(id)!;
  await h.advance(3000);
  assert.equal(h.fs.read(DEST), V1);
  assert.equal(h.ota(id)?.last?.result, 'rolled_back');
  assert.match(h.ota(id)!.last!.reason, /health check failing: connect ECONNREFUSED/);
  assert.notEqual(h.pid(id), bad, 'the process running the bad binary was restarted');
  assert.equal(h.os.processes.get(bad)!.alive, false);
  await h.close();
});

test('verify timeout: never Healthy within verify_timeout -> rollback', async () => {
  const h = await otaHarness();
  const id = await h.add({ verify_timeout: 10 }, { health_check: { ...TCP_CHECK, failure_threshold: 1000 } });
  await h.advance(1000);
  h.downloader.serve(URL_V2, { body: V2 });
  h.probes.set(7000, { ok: false, message: 'connection refused' });
  await h.want(id, sha(V2));
  await h.advance(9_000);
  assert.equal(h.ota(id)?.phase, 'validating');
  await h.advance(1_000);
  assert.equal(h.ota(id)?.last?.result, 'rolled_back');
  assert.match(h.ota(id)!.last!.reason, /not Healthy within verify_timeout \(10 s\)/);
  assert.equal(h.fs.read(DEST), V1);
  await h.close();
});

test('a failure without a backup (first install) is recorded, not rolled back', async () => {
  const h = await otaHarness();
  h.downloader.serve(URL_V2, { body: V2 });
  const id = await h.add({}, {}, null);
  h.os.exit(h.pid(id)!, 3);
  await h.settle();
  assert.equal(h.ota(id)?.last?.result, 'failed');
  assert.match(h.ota(id)!.last!.reason, /nothing to roll back to/);
  assert.equal(h.fs.read(DEST), V2, 'the destination keeps the one binary there is');
  assert.equal(h.ota(id)?.installed, sha(V2));
  await h.close();
});

test('svc ota rollback: restores the backup, restarts, and the desired checksum is not reinstalled', async () => {
  const h = await otaHarness();
  const id = await h.add();
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  const pid = h.pid(id);
  await h.requestRollback(id);
  assert.equal(h.fs.read(DEST), V1);
  assert.notEqual(h.pid(id), pid);
  assert.equal(h.ota(id)?.last?.result, 'rolled_back');
  assert.equal(h.ota(id)?.rollback_seq, 1);
  assert.equal(h.ota(id)?.rejected, sha(V2));
  await h.advance(60_000);
  assert.equal(h.downloader.requests.length, 1);
  // Nothing left to roll back to.
  await h.requestRollback(id);
  assert.equal(h.ota(id)?.last?.result, 'failed');
  assert.match(h.ota(id)!.last!.reason, /no backup/);
  assert.equal(h.ota(id)?.rollback_seq, 2);
  await h.close();
});

test('a newer checksum during a download cancels it; removing the artifact cleans up; each abandon is an ota_cancelled with its reason', async () => {
  const h = await otaHarness();
  const id = await h.add();
  h.downloader.serve(URL_V2, { stall: true });
  await h.want(id, sha(V2));
  assert.equal(h.ota(id)?.phase, 'downloading');
  const V3 = 'binary v3';
  h.downloader.serve('https://example.test/app-v3', { body: V3 });
  await h.want(id, sha(V3), { source: 'https://example.test/app-v3' });
  assert.equal(h.fs.read(DEST), V3);
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.deepEqual(h.types().slice(0, 3), ['ota_started', 'ota_cancelled', 'ota_started']);
  assert.deepEqual(h.msgs('ota_cancelled'), [`abandoned the update to ${sha(V2).slice(0, 12)} before its swap: superseded by ${sha(V3).slice(0, 12)}`]);

  h.downloader.serve(URL_V2, { stall: true });
  await h.want(id, sha(V2), { source: URL_V2 });
  assert.equal(h.ota(id)?.phase, 'downloading');
  await h.store.update(id, (c) => ({ ...c, artifact: undefined }));
  await h.settle();
  assert.equal(h.ota(id), undefined);
  assert.equal(h.record(id), undefined);
  assert.deepEqual(h.fs.temps(), []);
  assert.equal(h.msgs('ota_cancelled')[1], `abandoned the update to ${sha(V2).slice(0, 12)} before its swap: the artifact was removed`);
  await h.close();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEST, otaHarness, URL_V2, V1, V2 } from '../../../helpers/ota-harness.js';
import { sha } from '../../../helpers/ota-fakes.js';

test('a checksum change downloads, verifies, backs up, swaps, restarts and validates (startsecs) -> applied', async () => {
  const h = await otaHarness();
  const id = await h.add();
  assert.equal(h.ota(id)?.phase, 'idle');
  assert.equal(h.ota(id)?.installed, sha(V1));
  const oldPid = h.pid(id)!;
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  assert.equal(h.fs.read(DEST), V2);
  assert.deepEqual(h.fs.meta(DEST), { mode: 0o750, uid: 42, gid: 43 }, 'mode and owner of the old file');
  assert.equal(h.fs.read(`${DEST}.svc-backup`), V1);
  assert.deepEqual(h.fs.temps(), []);
  assert.notEqual(h.pid(id), oldPid, 'restarted into the new binary');
  assert.equal(h.observed.get(id).last_exit?.reason, 'restart');
  assert.equal(h.ota(id)?.phase, 'validating');
  await h.advance(1000);
  assert.equal(h.ota(id)?.phase, 'idle');
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.equal(h.ota(id)?.installed, sha(V2));
  assert.equal(h.ota(id)?.backup, sha(V1));
  assert.deepEqual(h.types(), ['ota_started', 'ota_swapped', 'ota_applied']);
  assert.equal(h.observed.get(id).restart_requests, undefined, 'the restart request is withdrawn');
  await h.close();
});

const TCP_CHECK = { type: 'tcp' as const, port: 7000, interval_secs: 1 };

test('with a health check the new binary must reach Healthy', async () => {
  const h = await otaHarness();
  const id = await h.add({}, { health_check: TCP_CHECK });
  await h.advance(1000);
  assert.equal(h.status(id), 'Healthy');
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  await h.advance(1000);
  assert.equal(h.status(id), 'Healthy');
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.match(h.ota(id)!.last!.reason, /Healthy/);
  await h.close();
});

test('manual: swapped, the process keeps running (restart pending) until restarted, then validated', async () => {
  const h = await otaHarness();
  const id = await h.add({ restart_policy: 'manual' });
  const pid = h.pid(id);
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  assert.equal(h.fs.read(DEST), V2);
  assert.equal(h.pid(id), pid, 'same process');
  assert.equal(h.ota(id)?.phase, 'restarting');
  assert.equal(h.ota(id)?.restart_pending, true);
  await h.advance(120_000);
  assert.equal(h.ota(id)?.phase, 'restarting', 'no deadline while waiting for a manual restart');
  await h.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  await h.settle();
  assert.notEqual(h.pid(id), pid);
  assert.equal(h.ota(id)?.restart_pending, false);
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();
});

test('signal:usr2 sends the signal to the same pid and validates on a probe after it', async () => {
  const h = await otaHarness();
  const id = await h.add({ restart_policy: 'signal:usr2' }, { health_check: TCP_CHECK });
  await h.advance(1000);
  const pid = h.pid(id)!;
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGUSR2']);
  assert.equal(h.ota(id)?.phase, 'validating');
  await h.advance(1000);
  assert.equal(h.pid(id), pid, 'not restarted');
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();
});

test('verify_timeout = 0: applied at the swap, restart requested, no validation', async () => {
  const h = await otaHarness();
  const id = await h.add({ verify_timeout: 0 });
  const pid = h.pid(id);
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.match(h.ota(id)!.last!.reason, /without validation/);
  assert.notEqual(h.pid(id), pid);
  await h.close();
});

test('create with an artifact: installs when the destination is missing, skips when its digest matches', async () => {
  const h = await otaHarness();
  h.downloader.serve(URL_V2, { body: V2 });
  const id = await h.add({}, {}, null);
  assert.equal(h.fs.read(DEST), V2);
  assert.equal(h.fs.meta(DEST)?.mode, 0o755, 'a new destination is executable');
  assert.equal(h.ota(id)?.backup, null);
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  await h.close();

  const h2 = await otaHarness();
  const id2 = await h2.add();
  assert.equal(h2.downloader.requests.length, 0);
  assert.equal(h2.ota(id2)?.installed, sha(V1));
  assert.deepEqual(h2.types(), []);
  await h2.close();
});

test('changes of other fields never start an update', async () => {
  const h = await otaHarness();
  const id = await h.add();
  await h.store.update(id, (c) => ({ ...c, env: { A: '1' }, artifact: { ...c.artifact!, verify_timeout: 5, restart_policy: 'manual' } }));
  await h.settle();
  assert.equal(h.downloader.requests.length, 0);
  assert.equal(h.ota(id)?.phase, 'idle');
  await h.close();
});

test('extract: the file named like the destination is staged from an archive with several files', async () => {
  const h = await otaHarness();
  const id = await h.add({ extract: true });
  const archive = JSON.stringify([
    { path: 'app-2.0/README', kind: 'file', size: 6, content: 'readme' },
    { path: 'app-2.0/', kind: 'directory', size: 0 },
    { path: 'app-2.0/app', kind: 'file', size: V2.length, content: V2 },
  ]);
  h.downloader.serve(URL_V2, { body: archive });
  await h.want(id, sha(archive));
  assert.equal(h.fs.read(DEST), V2);
  assert.deepEqual(h.fs.temps(), []);
  await h.advance(1000);
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.equal(h.ota(id)?.installed, sha(archive), 'installed is the artifact checksum');
  await h.close();
});

test('a cron program is not restarted: the next run uses the new binary', async () => {
  const h = await otaHarness();
  const id = await h.add({}, { cron: '0 3 * * *' });
  h.downloader.serve(URL_V2, { body: V2 });
  await h.want(id, sha(V2));
  assert.equal(h.ota(id)?.last?.result, 'applied');
  assert.match(h.ota(id)!.last!.reason, /next cron run/);
  await h.close();
});

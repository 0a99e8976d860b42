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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXEC_CHECK, reloadHarness } from '../../../helpers/reload-harness.js';

void test('an exec probe runs as the program runs: its user, group and groups (root ran it)', async () => {
  const h = await reloadHarness();
  h.os.rootUser = true;
  try {
    await h.add({ name: 'app', user: 'nobody', health_check: EXEC_CHECK });
    const spec = h.probeSpecs[0];
    assert.ok(spec, 'probed');
    assert.deepEqual({ uid: spec.uid, gid: spec.gid, groups: spec.groups }, { uid: 65534, gid: 65534, groups: [65534] });
    assert.equal(spec.env.USER, 'nobody');
  } finally {
    await h.close();
  }
});

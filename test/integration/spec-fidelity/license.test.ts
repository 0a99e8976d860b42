import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, startDaemon, tempRoot } from '../../helpers/daemon.js';

/**
 * Spec, License verification failure: "Plugins present, or auth_secret set, or non-loopback bind |
 * Refuses to start." (The full matrix is in test/integration/security/startup-matrix.test.ts.)
 */
test('license verification failure: an invalid license key with plugins present refuses to start', async () => {
  const root = tempRoot();
  try {
    mkdirSync(join(root, 'plugins'), { recursive: true });
    writeFileSync(join(root, 'plugins', 'ui.so'), 'not a real library: its presence is what counts');
    const outcome = await startDaemon(root, { config: '[server]\nport = 0\n\n[license]\nkey = "not-a-valid-license"\n' }).then(
      async (d) => {
        await d.stop();
        return null;
      },
      (err: Error) => err,
    );
    assert.ok(outcome, 'svcd started (open mode) with an invalid license key and a plugin present');
    assert.match(outcome.message, /svcd exited with [1-9]/);
    assert.match(outcome.message, /licen[cs]e/i);
    assert.match(outcome.message, /plugin/i);
  } finally {
    removeRoot(root);
  }
});

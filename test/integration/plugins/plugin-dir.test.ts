// What svcd does with an odd plugin directory, against a real svcd.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, tempRoot, writeConfig } from '../../helpers/daemon.js';
import { runRefused } from '../../helpers/startup.js';

async function refusal(setup: (root: string) => void): Promise<string> {
  const root = tempRoot('svc-plugin-dir-');
  try {
    setup(root);
    const run = await runRefused(root);
    assert.equal(run.code, 2, `expected exit 2, got ${run.code}:\n${run.stderr}`);
    assert.doesNotMatch(run.stderr, /fatal|\n\s+at /, 'no stack trace');
    return run.refusal;
  } finally {
    removeRoot(root);
  }
}

test('a plugins path that is a file refuses the start naming it (it was a stack trace)', async () => {
  const line = await refusal((root) => {
    writeConfig(root, '[server]\nport = 0\n');
    writeFileSync(join(root, 'plugins'), 'not a directory');
  });
  assert.match(line, /^svcd: refusing to start: the plugin directory \/.*\/plugins cannot be read: it is not a directory$/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtPlugins } from '../../../tui/cli/commands/plugins.js';

test('svc plugins install: the built libraries by name; a build folder that is not there has none (it was a raw ENOENT from scandir)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-built-'));
  try {
    writeFileSync(join(dir, 'notify.so'), '');
    writeFileSync(join(dir, 'security.so'), '');
    writeFileSync(join(dir, 'notes.txt'), '');
    assert.deepEqual(builtPlugins(dir).sort(), ['notify', 'security']);
    assert.deepEqual(builtPlugins(join(dir, 'missing')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

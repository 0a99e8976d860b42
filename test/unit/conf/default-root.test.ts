import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRoot } from '../../../conf/default-root.js';
import { REPO } from '../../helpers/daemon.js';

test('in a source checkout the default root is ./.svc, never the source folders', () => {
  assert.deepEqual(defaultRoot(REPO, {}), { root: join(REPO, '.svc'), checkout: true });
  const fake = mkdtempSync(join(tmpdir(), 'svc-checkout-'));
  try {
    writeFileSync(join(fake, 'package.json'), '{}');
    mkdirSync(join(fake, 'bin'));
    writeFileSync(join(fake, 'bin', 'svcd.ts'), '');
    assert.equal(defaultRoot(fake, {}).root, join(fake, '.svc'));
  } finally {
    rmSync(fake, { recursive: true, force: true });
  }
});

test('elsewhere the current directory; SVC_ROOT always wins', () => {
  const plain = mkdtempSync(join(tmpdir(), 'svc-plain-'));
  try {
    assert.deepEqual(defaultRoot(plain, {}), { root: plain, checkout: false });
    assert.deepEqual(defaultRoot(REPO, { SVC_ROOT: plain }), { root: plain, checkout: false });
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
});

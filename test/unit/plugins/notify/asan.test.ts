import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../../../helpers/daemon.js';
import { compileC } from '../../../helpers/native.js';

test('the notify plugin C code passes its driver under AddressSanitizer and UBSan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-notify-asan-'));
  try {
    const driver = compileC(
      join(dir, 'notify-driver'),
      [join(REPO, 'test', 'native', 'notify-driver.c'), join(REPO, 'plugins', 'notify', 'notify.c')],
      ['-O1', '-g', '-fno-omit-frame-pointer', '-fsanitize=address,undefined', '-fno-sanitize-recover=all'],
    );
    // Leak checking needs ptrace-like access that some containers deny; the rest of ASan does not.
    const run = spawnSync(driver, { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'ok');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

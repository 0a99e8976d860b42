import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../../helpers/daemon.js';
import { compileC } from '../../helpers/native.js';

test('the security plugin C code passes its driver under AddressSanitizer and UBSan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-asan-'));
  try {
    const driver = compileC(
      join(dir, 'security-driver'),
      [join(REPO, 'test', 'native', 'security-driver.c'), join(REPO, 'plugins', 'security', 'security.c'), join(REPO, 'plugins', 'security', 'sha256.c')],
      ['-O1', '-g', '-fno-omit-frame-pointer', '-fsanitize=address,undefined', '-fno-sanitize-recover=all'],
    );
    // Leak checking needs ptrace-like access that some containers deny; the rest of ASan does not.
    const probe = spawnSync(driver, { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
    const leaksUnsupported = /LeakSanitizer does not work under ptrace|LeakSanitizer has encountered a fatal error/.test(probe.stderr);
    const run = leaksUnsupported ? spawnSync(driver, { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } }) : probe;
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'ok');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

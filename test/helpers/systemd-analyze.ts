import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { ExportedFile } from '../../stacks/export/types.js';

/**
 * systemd-analyze (Debian package `systemd`, installed by scripts/install-system-deps.sh) is
 * required under CI; elsewhere a test that needs it is skipped with a one-line reason.
 */
export function needSystemdAnalyze(t: TestContext): boolean {
  if (spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0) return true;
  if (process.env.CI) assert.fail('systemd-analyze is required under CI: run scripts/install-system-deps.sh');
  t.skip('systemd-analyze not installed: run scripts/install-system-deps.sh (or apt-get install systemd)');
  return false;
}

/**
 * Runs `systemd-analyze verify` on the units (written to a temporary folder) and returns what it
 * printed. `allowMissing` lists executables that are not on this machine (fixture paths): their
 * "is not executable" lines are dropped, every other complaint stays.
 */
export function verifyUnits(files: ExportedFile[], allowMissing: (path: string) => boolean = () => false): { status: number | null; problems: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-units-'));
  try {
    for (const f of files) writeFileSync(join(dir, f.name), f.content);
    const res = spawnSync('systemd-analyze', ['verify', ...files.map((f) => join(dir, f.name))], { encoding: 'utf8', env: { ...process.env, SYSTEMD_LOG_COLOR: '0' } });
    const lines = `${res.stdout}${res.stderr}`.split('\n').filter(Boolean);
    const problems = lines.filter((l) => {
      const m = /Command (\S+) is not executable: No such file or directory/.exec(l);
      return !(m && allowMissing(m[1]));
    });
    return { status: problems.length === 0 ? 0 : res.status, problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

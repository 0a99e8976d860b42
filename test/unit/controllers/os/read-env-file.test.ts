import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnvFileBounded } from '../../../../controllers/os/read-env-file.js';

test("an env_file readable by its group is readable by a program holding that group as a supplementary one", () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-envfile-'));
  try {
    const file = join(dir, 'app.env');
    writeFileSync(file, 'A=1\n');
    chmodSync(file, 0o640);
    const { gid } = statSync(file);
    // Another user, whose primary group is not the file's.
    const as = { uid: 4242, gid: gid + 1 };
    assert.throws(() => readEnvFileBounded(file, as), /not readable by uid 4242/);
    assert.equal(readEnvFileBounded(file, { ...as, groups: [gid + 1, gid] }), 'A=1\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rotate, tailBytesFor } from '../../../log-files/rotation.js';

const noSpace = Object.assign(new Error('ENOSPC: no space left on device, copyfile'), { code: 'ENOSPC' });

test('when the copy fails (disk full) the file is truncated in place, keeping its newest whole lines, and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-inplace-'));
  try {
    const file = join(dir, 'p.out');
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}`);
    writeFileSync(file, `${lines.join('\n')}\n`); // 10 000 bytes
    writeFileSync(`${file}.1`, 'older copy\n');
    // A copy that fills the disk half way: the partial .1 must not stay behind.
    const copy = async (_from: string, to: string) => {
      await writeFile(to, 'partial');
      throw noSpace;
    };
    const outcome = await rotate(file, 2, { tailBytes: 1005, copy });
    assert.deepEqual(outcome, { reason: 'the copy to .1 failed (ENOSPC)', droppedBytes: 9000, keptBytes: 1000 });
    assert.equal(existsSync(`${file}.1`), false, 'the partial copy is removed');
    assert.equal(readFileSync(`${file}.2`, 'utf8'), 'older copy\n', 'older copies shift as usual');
    const after = readFileSync(file, 'utf8').split('\n');
    assert.match(after[0] ?? '', /^\[svcd \S+\] log rotated in place: the copy to \.1 failed \(ENOSPC\); 9000 older bytes dropped, the newest 1000 kept$/);
    assert.deepEqual(after.slice(1, -1), lines.slice(900), 'the newest 100 lines, whole');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the kept tail is a quarter of log_max_bytes, at most 1 MiB', () => {
  assert.equal(tailBytesFor(10_000), 2500);
  assert.equal(tailBytesFor(10 * 1024 * 1024), 1024 * 1024);
});

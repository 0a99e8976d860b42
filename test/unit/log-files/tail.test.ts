import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tailLines } from '../../../log-files/tail.js';

function withDir(run: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tail-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'tail: CRLF lines read as the log stream sends them (svc logs -f printed them twice: "a\\r" in the tail is not "a" on the stream)',
  withDir(async (dir) => {
    const file = join(dir, 'p.out');
    writeFileSync(file, 'a\r\nb\r\nin\rside\n\r\nprogress\r');
    assert.deepEqual(await tailLines(file, 10), ['a', 'b', 'in\rside', '', 'progress\r'], 'only the \\r before a newline goes; a partial last line is as written');
    writeFileSync(file, '\n');
    assert.deepEqual(await tailLines(file, 10), [''], 'one empty line');
  }),
);

test(
  'tail reads at most its window from the end of a file: a file with no newline is not loaded whole',
  withDir(async (dir) => {
    const file = join(dir, 'p.out');
    writeFileSync(file, `start\n${'y'.repeat(3 * 1024 * 1024)}`);
    const window = 1024 * 1024;
    assert.deepEqual(await tailLines(file, 5000, window), ['y'.repeat(window)], 'the newest window bytes of the line');
    writeFileSync(file, `${'z'.repeat(100)}\nx\ny\n`);
    assert.deepEqual(await tailLines(file, 5, 10), ['zzzzz', 'x', 'y'], 'a line that starts before the window is shown from there');
    assert.deepEqual(await tailLines(file, 1, 10), ['y']);
    assert.deepEqual(await tailLines(file, 2, 10), ['x', 'y'], 'enough whole lines: the cut one is left out');
  }),
);

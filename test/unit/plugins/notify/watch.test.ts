import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchFile } from '../../../../plugins/notify/watch.js';
import { eventually } from '../../../helpers/daemon.js';

/** Watches a fresh notify.toml, recording the text each report would load. */
async function watched(fn: (file: string, seen: string[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-notify-watch-'));
  const file = join(dir, 'notify.toml');
  const seen: string[] = [];
  const stop = await watchFile(file, () => seen.push(readText(file)), (err) => assert.fail(String(err)));
  try {
    await fn(file, seen);
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const readText = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '(absent)';
  }
};

test('a file written in two bursts is first read whole (a half that parsed removed the channels after the cut, with their retries)', async () => {
  await watched(async (file, seen) => {
    // Another process writes, pausing between the two halves as a slow copy or a shell script would.
    // (spawn, not spawnSync: the watcher must run while the writer pauses.)
    const writer = spawn('sh', ['-c', 'printf "[[channel]]\\nname = \\"a\\"\\n" > "$1"; sleep 0.06; printf "[[channel]]\\nname = \\"b\\"\\n" >> "$1"', 'sh', file]);
    const [code] = (await once(writer, 'exit')) as [number | null];
    assert.equal(code, 0);
    const whole = '[[channel]]\nname = "a"\n[[channel]]\nname = "b"\n';
    await eventually(() => seen.length > 0, 10_000, 'the change is reported');
    assert.equal(seen[0], whole);
  });
});

test('an editor\'s rename-over and a removal are each reported', async () => {
  await watched(async (file, seen) => {
    writeFileSync(`${file}.tmp`, 'one');
    renameSync(`${file}.tmp`, file);
    await eventually(() => seen.at(-1) === 'one', 10_000, 'the rename-over');
    rmSync(file);
    await eventually(() => seen.at(-1) === '(absent)', 10_000, 'the removal');
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitCommand } from '../../../state/command-line.js';
import { backoffDelayMs, QUICK_RESTART_MS, RESTART_PACE_MS, restartPacedAt } from '../../../controllers/process/backoff.js';
import { tailLines } from '../../../log-files/tail.js';
import { rotate } from '../../../log-files/rotation.js';

test('splitCommand follows shell quoting without expansion', () => {
  assert.deepEqual(splitCommand('node server.js --port 80'), ['node', 'server.js', '--port', '80']);
  assert.deepEqual(splitCommand(`sh -c 'echo "hi there"; exit 3'`), ['sh', '-c', 'echo "hi there"; exit 3']);
  assert.deepEqual(splitCommand('a "b \\"c\\"" d\\ e $HOME'), ['a', 'b "c"', 'd e', '$HOME']);
  assert.deepEqual(splitCommand('  x   ""  '), ['x', '']);
  assert.throws(() => splitCommand("echo 'oops"), /unterminated single quote/);
});

test('backoff doubles from backoff_secs up to backoff_max_secs', () => {
  const c = { backoff_secs: 1, backoff_max_secs: 60 };
  assert.deepEqual([1, 2, 3, 4, 7, 20].map((n) => backoffDelayMs(c, n, 0.5)), [1000, 2000, 4000, 8000, 60000, 60000]);
  assert.equal(backoffDelayMs({ backoff_secs: 0, backoff_max_secs: 60 }, 5, 0.9), 0, 'backoff_secs 0: at once (quick restarts are paced daemon-wide instead)');
  // A cap below backoff_secs (backoff_secs = 120 with the default cap of 60, or backoff_max_secs = 0)
  // does not shorten the first delay: it is backoff_secs, and stays there.
  assert.deepEqual([1, 2, 5].map((n) => backoffDelayMs({ backoff_secs: 120, backoff_max_secs: 60 }, n, 0.5)), [120_000, 120_000, 120_000]);
  assert.deepEqual([1, 3].map((n) => backoffDelayMs({ backoff_secs: 2, backoff_max_secs: 0 }, n, 0.5)), [2000, 2000]);
});

test('restartPacedAt: quick retries keep RESTART_PACE_MS from the last quick one; others run when due', () => {
  assert.deepEqual(restartPacedAt(1000, 0, -Infinity), { at: 1000, quick: true });
  assert.deepEqual(restartPacedAt(1000, 0, 998), { at: 998 + RESTART_PACE_MS, quick: true });
  assert.deepEqual(restartPacedAt(1000, 20, 990), { at: 1000, quick: true }, 'due after the pace already');
  assert.deepEqual(restartPacedAt(5000, QUICK_RESTART_MS, 4999), { at: 5000, quick: false });
});

test('backoff delay stays finite for any retry count (retry 1025 once overflowed to NaN)', () => {
  for (const retry of [1024, 1025, 5000, Number.MAX_SAFE_INTEGER]) {
    for (const c of [{ backoff_secs: 0, backoff_max_secs: 60 }, { backoff_secs: 1, backoff_max_secs: 3600 }]) {
      const delay = backoffDelayMs(c, retry, 0.5);
      assert.ok(Number.isFinite(delay) && delay >= 0 && delay <= c.backoff_max_secs * 1000 * 1.2, `retry ${retry}: ${delay}`);
    }
  }
});

test('tailLines reads the last lines from the end of a large file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tail-'));
  try {
    const file = join(dir, 'x.out');
    writeFileSync(file, Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join('\n') + '\n');
    assert.deepEqual(await tailLines(file, 3), ['line 99997', 'line 99998', 'line 99999']);
    writeFileSync(file, 'a\nb\npartial');
    assert.deepEqual(await tailLines(file, 2), ['b', 'partial']);
    assert.deepEqual(await tailLines(join(dir, 'missing'), 5), []);
    writeFileSync(file, '');
    assert.deepEqual(await tailLines(file, 5), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rotate copies to .1, shifts older copies and truncates in place', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-rot-'));
  try {
    const file = join(dir, 'p.out');
    writeFileSync(file, 'first\n');
    await rotate(file, 2);
    writeFileSync(file, 'second\n', { flag: 'a' });
    await rotate(file, 2);
    assert.equal(readFileSync(file, 'utf8'), '');
    assert.equal(readFileSync(`${file}.1`, 'utf8'), 'second\n');
    assert.equal(readFileSync(`${file}.2`, 'utf8'), 'first\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the log rotator rotates only files over log_max_bytes, every interval', async () => {
  const { LogRotator } = await import('../../../log-files/rotation.js');
  const { FakeClock } = await import('../../../reconciler/fake-clock.js');
  const dir = mkdtempSync(join(tmpdir(), 'svc-rotator-'));
  try {
    const big = join(dir, 'big.out');
    const small = join(dir, 'small.out');
    writeFileSync(big, 'x'.repeat(2000));
    writeFileSync(small, 'y'.repeat(10));
    const clock = new FakeClock();
    const rotator = new LogRotator({ clock, files: () => [big, small, join(dir, 'missing.err')], maxBytes: 1000, keep: 2, intervalMs: 10_000 });
    rotator.start();
    clock.advance(9_999);
    await new Promise((r) => setImmediate(r));
    assert.equal(readFileSync(big, 'utf8').length, 2000, 'not yet: the check runs every interval');
    clock.advance(1);
    await rotator.settled(); // the pass the timer started
    assert.equal(readFileSync(big, 'utf8'), '');
    assert.equal(readFileSync(`${big}.1`, 'utf8').length, 2000);
    assert.equal(readFileSync(small, 'utf8'), 'y'.repeat(10));
    rotator.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

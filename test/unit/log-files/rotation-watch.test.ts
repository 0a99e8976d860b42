import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogRotator, type DirWatch } from '../../../log-files/rotation.js';
import { FakeClock } from '../../../reconciler/fake-clock.js';

/** A directory watch driven by the test: `write(dir)` is what inotify would report. */
function fakeWatch() {
  const listeners = new Map<string, () => void>();
  let opened = 0;
  const watch: DirWatch = (dir, onEvent) => {
    opened++;
    listeners.set(dir, onEvent);
    return () => listeners.delete(dir);
  };
  return { watch, write: (dir: string) => listeners.get(dir)?.(), watching: (dir: string) => listeners.has(dir), opened: () => opened };
}

/** A log directory holding `p.out` (with `content`) for `body`, removed afterwards. */
async function withLogFile(content: string, body: (dir: string, file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-rotator-watch-'));
  try {
    const file = join(dir, 'p.out');
    writeFileSync(file, content);
    await body(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A rotator of `file` (every 10 s) past its first pass, which runs an interval after start. */
async function startedRotator(clock: FakeClock, file: string, opts: { maxBytes: number; keep: number; watch: DirWatch; onError?: (file: string) => void }): Promise<LogRotator> {
  const rotator = new LogRotator({ clock, files: () => [file], intervalMs: 10_000, ...opts });
  rotator.start();
  clock.advance(10_000);
  await rotator.settled();
  return rotator;
}

test('log rotation: idle logs arm no timer; a write schedules one pass an interval later', async () => {
  await withLogFile('x'.repeat(10), async (dir, file) => {
    const clock = new FakeClock();
    const w = fakeWatch();
    const rotator = await startedRotator(clock, file, { maxBytes: 1000, keep: 1, watch: w.watch });
    assert.ok(w.watching(dir), 'watched after the first pass');
    assert.equal(clock.nextTimerAt(), null, 'no writes: no timer');

    writeFileSync(file, 'x'.repeat(2000));
    w.write(dir);
    assert.ok(!w.watching(dir), 'one wake-up per interval: the watch is closed until the pass');
    w.write(dir);
    assert.equal(clock.nextTimerAt(), clock.now() + 10_000);
    clock.advance(9_999);
    assert.equal(readFileSync(file, 'utf8').length, 2000, 'not before the interval');
    clock.advance(1);
    await rotator.settled();
    assert.equal(readFileSync(file, 'utf8'), '');
    assert.equal(readFileSync(`${file}.1`, 'utf8').length, 2000);
    assert.ok(w.watching(dir), 'watched again');
    assert.equal(clock.nextTimerAt(), null);
    rotator.stop();
    assert.ok(!w.watching(dir), 'stop closes the watches');
  });
});

test('log rotation: a directory that cannot be watched is checked every interval', async () => {
  await withLogFile('x', async (dir, file) => {
    const clock = new FakeClock();
    const errors: string[] = [];
    const watch: DirWatch = () => {
      throw Object.assign(new Error('no watches left'), { code: 'ENOSPC' });
    };
    const rotator = await startedRotator(clock, file, { maxBytes: 1000, keep: 1, watch, onError: (f) => errors.push(f) });
    assert.equal(clock.nextTimerAt(), clock.now() + 10_000, 'falls back to a check every interval');
    writeFileSync(file, 'x'.repeat(2000));
    clock.advance(10_000);
    await rotator.settled();
    assert.equal(readFileSync(file, 'utf8'), '');
    assert.ok(errors.includes(dir));
    rotator.stop();
  });
});

test('log rotation: a fast writer is checked when it is due to reach log_max_bytes, not an interval later; a slow one keeps the interval', async () => {
  await withLogFile('', async (dir, file) => {
    const clock = new FakeClock();
    // The writer never pauses: a watch reports a write as soon as it is opened, as inotify would,
    // so the next pass is armed while the current one is still measuring.
    let writing = false;
    const listeners = new Map<string, (name?: string) => void>();
    const watch: DirWatch = (d, onEvent) => {
      listeners.set(d, onEvent);
      if (writing) queueMicrotask(() => listeners.get(d)?.('p.out'));
      return () => listeners.delete(d);
    };
    const rotator = await startedRotator(clock, file, { maxBytes: 15_000, keep: 3, watch });
    // 1,000 bytes a second for 60 s: an interval holds 10,000 bytes, two thirds of the limit.
    const rotatedAt: number[] = [];
    writing = true;
    for (let second = 0; second < 60; second++) {
      appendFileSync(file, 'x'.repeat(1000));
      listeners.get(dir)?.('p.out');
      for (let ms = 0; ms < 1000; ms += 250) {
        clock.advance(250);
        await rotator.settled();
      }
      if (readFileSync(file, 'utf8').length === 0) rotatedAt.push(second);
    }
    const copies = [1, 2, 3].map((i) => readFileSync(`${file}.${i}`, 'utf8').length);
    // Checked every 10 s, the file would be rotated at 20,000 bytes (a third over the limit).
    for (const size of copies) assert.ok(size > 15_000 && size <= 16_000, `rotated at ${size} bytes`);
    assert.ok(rotatedAt.length >= 3);
  });
});

test('log rotation: a slow writer wakes the rotator once an interval, as before', async () => {
  await withLogFile('', async (dir, file) => {
    const clock = new FakeClock();
    const w = fakeWatch();
    const rotator = await startedRotator(clock, file, { maxBytes: 1_000_000, keep: 1, watch: w.watch });
    for (let i = 0; i < 3; i++) {
      appendFileSync(file, 'a line\n');
      w.write(dir);
      assert.equal(clock.nextTimerAt(), clock.now() + 10_000);
      clock.advance(10_000);
      await rotator.settled();
    }
  });
});

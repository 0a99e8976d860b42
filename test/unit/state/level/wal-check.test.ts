import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { crc32c } from '../../../../state/level/crc32c.js';
import { checkWal } from '../../../../state/level/wal-check.js';
import { droppedAtOpen } from '../../../../state/level/info-log.js';
import { flipBytes, walFiles, zeroBytes } from '../../../helpers/level-damage.js';

/** A LevelDB with `n` records of about 300 bytes, each its own write (one log record each). */
async function levelWith(n: number): Promise<{ location: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wal-'));
  const location = join(dir, 'db');
  const db = new ClassicLevel<string, string>(location);
  await db.open();
  for (let i = 0; i < n; i++) await db.put(`k${String(i).padStart(3, '0')}`, 'v'.repeat(300));
  await db.close();
  return { location, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function keysAfterOpen(location: string): Promise<number> {
  const db = new ClassicLevel<string, string>(location);
  await db.open();
  const n = (await db.keys().all()).length;
  await db.close();
  return n;
}

void test('crc32c is the Castagnoli CRC (RFC 3720 check value)', () => {
  assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
});

void test('a log LevelDB wrote is clean', async () => {
  const { location, cleanup } = await levelWith(25);
  try {
    const [log] = walFiles(location);
    assert.deepEqual(checkWal(readFileSync(log)), []);
  } finally {
    cleanup();
  }
});

void test('a damaged record with records after it is reported as followed, and LevelDB would drop those records', async () => {
  const { location, cleanup } = await levelWith(25);
  try {
    const [log] = walFiles(location);
    flipBytes(log, 3000); // inside the ~10th record of the first block
    const damage = checkWal(readFileSync(log));
    assert.equal(damage.length, 1);
    assert.equal(damage[0].reason, 'checksum mismatch');
    assert.equal(damage[0].followed, true);
    // What svc prevents: LevelDB's own recovery keeps going without the rest of the block.
    assert.ok((await keysAfterOpen(location)) < 25);
    const dropped = await droppedAtOpen(location);
    assert.equal(dropped.length, 1);
    assert.match(dropped[0].reason, /checksum mismatch/);
  } finally {
    cleanup();
  }
});

void test('zeroed bytes in the middle are reported (LevelDB drops the rest of the block without a word)', async () => {
  const { location, cleanup } = await levelWith(25);
  try {
    const [log] = walFiles(location);
    zeroBytes(log, 3000, 400);
    const damage = checkWal(readFileSync(log));
    assert.ok(damage.length >= 1);
    assert.equal(damage[0].followed, true);
    assert.ok((await keysAfterOpen(location)) < 25);
  } finally {
    cleanup();
  }
});

void test('a write cut off at the end of the log (a crash mid-write) is not damage', async () => {
  const { location, cleanup } = await levelWith(25);
  try {
    const [log] = walFiles(location);
    truncateSync(log, statSync(log).size - 100);
    assert.deepEqual(checkWal(readFileSync(log)), []);
    assert.equal(await keysAfterOpen(location), 24);
  } finally {
    cleanup();
  }
});

void test('a damaged last record with nothing after it is reported, but not as followed', async () => {
  const { location, cleanup } = await levelWith(25);
  try {
    const [log] = walFiles(location);
    flipBytes(log, statSync(log).size - 50);
    const damage = checkWal(readFileSync(log));
    assert.equal(damage.length, 1);
    assert.equal(damage[0].followed, false);
  } finally {
    cleanup();
  }
});

void test('damage in an earlier block is followed by the intact blocks after it', async () => {
  const { location, cleanup } = await levelWith(400); // about 120 KiB: four blocks
  try {
    const [log] = walFiles(location);
    flipBytes(log, 100);
    const damage = checkWal(readFileSync(log));
    assert.equal(damage[0].offset < 32768, true);
    assert.equal(damage[0].followed, true);
  } finally {
    cleanup();
  }
});

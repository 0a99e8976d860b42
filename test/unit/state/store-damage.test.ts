import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProgramStore, StoreOpenError } from '../../../state/store.js';
import { flipBytes, walFiles } from '../../helpers/level-damage.js';

/** A data dir whose store holds `n` programs, each created by its own write. */
async function storeWith(n: number): Promise<{ dir: string; location: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-damage-'));
  const store = await ProgramStore.open(dir);
  for (let i = 0; i < n; i++) await store.create([{ name: `p${i}`, command: 'node', args: ['-e', 'setInterval(()=>{},1e3)'] }]);
  await store.close();
  return { dir, location: join(dir, 'state.db') };
}

void test('finding 11: a damaged write-ahead log refuses the open, says which file and byte, and changes nothing', async () => {
  const { dir, location } = await storeWith(25);
  try {
    const [log] = walFiles(location);
    flipBytes(log, 2000);
    const before = readFileSync(log);
    await assert.rejects(ProgramStore.open(dir), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /the state store at .*state\.db has a damaged write-ahead log \(\d+\.log at byte \d+: checksum mismatch/);
      assert.match(err.message, /svcd --repair-store/);
      return true;
    });
    assert.deepEqual(readFileSync(log), before, 'the log is untouched');
    assert.equal(readdirSync(dir).filter((n) => n.includes('damaged')).length, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('finding 11: accepting the damage keeps what is readable, keeps a copy of the log, and reports the loss', async () => {
  const { dir, location } = await storeWith(25);
  try {
    const [log] = walFiles(location);
    flipBytes(log, 2000);
    const store = await ProgramStore.open(dir, { damage: 'accept' });
    const report = store.report();
    assert.ok(store.list().length < 25 && store.list().length > 0, `kept ${store.list().length}`);
    assert.match(report.recovered_at_open ?? '', /damaged write-ahead log: \d+\.log at byte \d+: checksum mismatch/);
    assert.match(report.recovered_at_open ?? '', /LevelDB dropped \d+ bytes/);
    const aside = readdirSync(dir).find((n) => n.startsWith('state.db.damaged-'));
    assert.ok(aside && existsSync(join(dir, aside, log.split('/').pop()!)), 'a copy of the damaged log is kept');
    await store.close();
    // Once repaired, the store opens cleanly (the loss was reported when it happened).
    const again = await ProgramStore.open(dir);
    assert.equal(again.report().recovered_at_open, null);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a corrupt MANIFEST is refused naming the file', async () => {
  const { dir, location } = await storeWith(3);
  try {
    const manifest = readdirSync(location).find((n) => n.startsWith('MANIFEST-'))!;
    flipBytes(join(location, manifest), 10);
    await assert.rejects(ProgramStore.open(dir), (err: Error) => err instanceof StoreOpenError && new RegExp(`is corrupt \\(Corruption: .*damaged: ${manifest} at byte 0`).test(err.message));
    writeFileSync(join(location, 'CURRENT'), 'garbage');
    await assert.rejects(ProgramStore.open(dir), (err: Error) => err instanceof StoreOpenError && /CURRENT/.test(err.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a damaged last record with nothing after it opens, and the loss is reported', async () => {
  const { dir, location } = await storeWith(5);
  try {
    const [log] = walFiles(location);
    flipBytes(log, statSync(log).size - 20);
    const logged: string[] = [];
    const store = await ProgramStore.open(dir, { log: { info: () => undefined, warn: () => undefined, error: (msg) => logged.push(msg) } });
    assert.equal(store.list().length, 4);
    assert.match(store.report().recovered_at_open ?? '', /damaged write-ahead log: \d+\.log at byte \d+: checksum mismatch/);
    assert.deepEqual(logged, ['the state store was damaged; what could be read was kept']);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

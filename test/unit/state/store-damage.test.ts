import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
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

void test('a missing CURRENT is refused naming it, deletes nothing, and the store opens again once CURRENT is written back', async () => {
  const { dir, location } = await storeWith(3);
  try {
    await (await ProgramStore.open(dir)).close(); // the reopen writes the log out as a table, which LevelDB would delete
    const current = readFileSync(join(location, 'CURRENT'), 'utf8');
    rmSync(join(location, 'CURRENT'));
    const before = readdirSync(location).sort();
    await assert.rejects(ProgramStore.open(dir), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /the state store at .*state\.db has no CURRENT file but holds data \(.*\.ldb.*\); opening it would start an empty store/);
      assert.match(err.message, new RegExp(`write its name into CURRENT \\(printf '${current.trim()}\\\\n' > `));
      return true;
    });
    assert.deepEqual(readdirSync(location).sort(), before, 'nothing written or deleted');
    writeFileSync(join(location, 'CURRENT'), current);
    const store = await ProgramStore.open(dir);
    assert.deepEqual(store.list().map((r) => r.config.name).sort(), ['p0', 'p1', 'p2']);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a damaged line inside SVC-PROGRAMS refuses the start saying --repair-store rebuilds it (the advice was to move the whole store aside), and --repair-store does', async () => {
  const { dir, location } = await storeWith(3);
  try {
    const list = join(location, 'SVC-PROGRAMS');
    writeFileSync(list, `${readFileSync(list, 'utf8')}["+","x","torn\n["-","x"]\n`);
    await assert.rejects(ProgramStore.open(dir), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /cannot check that it still holds every program it acknowledged: .*SVC-PROGRAMS is not a program manifest \(line \d+ is damaged\); svcd refuses to start\. Run 'svcd --repair-store' once to rebuild the list/);
      return true;
    });
    const repaired = await ProgramStore.open(dir, { damage: 'accept' });
    assert.equal(repaired.list().length, 3);
    assert.match(repaired.report().recovered_at_open ?? '', /SVC-PROGRAMS is not a program manifest \(line \d+ is damaged\): rebuilt from the programs LevelDB holds/);
    await repaired.close();
    const again = await ProgramStore.open(dir);
    assert.equal(again.list().length, 3);
    assert.equal(again.report().recovered_at_open, null);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a LevelDB that holds keys but none of svc\'s (an event history put in its place) is refused, and nothing is written into it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-damage-'));
  try {
    const foreign = new ClassicLevel<string, string>(join(dir, 'state.db'));
    await foreign.sublevel<string, string>('e', {}).put('001700000000000-000000000000', '{"event":"system_startup"}');
    await foreign.close();
    await assert.rejects(ProgramStore.open(dir), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /the state store at .*state\.db holds none of svc's records but other keys \(the first: "!e!001700000000000-000000000000"\): it is not svc's state store/);
      return true;
    });
    const after = new ClassicLevel<string, string>(join(dir, 'state.db'));
    assert.deepEqual(await after.keys().all(), ['!e!001700000000000-000000000000'], 'no boot epoch or program list written into it');
    await after.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a damaged last record: a lost program refuses the open by name; a lost intent change opens and is reported', async () => {
  const { dir, location } = await storeWith(5);
  try {
    const [log] = walFiles(location);
    const size = statSync(log).size;
    flipBytes(log, size - 20); // inside the record that created p4
    await assert.rejects(ProgramStore.open(dir), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /has lost 1 program\(s\) it had acknowledged: 'p4' \([0-9a-f-]{36}\) \(listed in .*SVC-PROGRAMS, not found in LevelDB\)/);
      return true;
    });
    const repaired = await ProgramStore.open(dir, { damage: 'accept' });
    assert.match(repaired.report().recovered_at_open ?? '', /programs lost: 'p4'/);
    const [p0] = repaired.list().filter((r) => r.config.name === 'p0');
    await repaired.setIntents([p0.id], (i) => ({ ...i, run: 'stopped' }));
    await repaired.close();
    // Now the last record is an intent change: losing it loses no program, and is reported.
    const [again] = walFiles(location);
    flipBytes(again, statSync(again).size - 20);
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

void test('damage inside a table file (which LevelDB often does not notice) never loses a program silently', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-damage-'));
  try {
    const pristine = join(dir, 'pristine');
    const store = await ProgramStore.open(pristine);
    // Fixed ids and times: the same table bytes on every run, so the same flips hit the same records.
    const records = Array.from({ length: 60 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      config: { name: `t${i}`, command: 'node', args: ['x'.repeat(100)] },
      intent: { run: 'running' as const, start_seq: 0, restart_seq: 0, force: false },
      revision: 1,
      created_at: 1,
      updated_at: 1,
    }));
    await store.commit({ put: records, del: [] });
    await store.close();
    await (await ProgramStore.open(pristine)).close(); // the reopen writes the log out as a table
    const table = readdirSync(join(pristine, 'state.db')).find((n) => n.endsWith('.ldb'))!;
    const seen = { complete: 0, quarantined: 0, lostByName: 0, unreadable: 0 };
    for (let offset = 7; offset < 400; offset += 7) {
      const work = join(dir, `at-${offset}`);
      cpSync(pristine, work, { recursive: true });
      const file = join(work, 'state.db', table);
      const bytes = readFileSync(file);
      bytes[offset] ^= 1;
      writeFileSync(file, bytes);
      try {
        const opened = await ProgramStore.open(work);
        // A damaged record that still reads is quarantined: reported by name, not lost silently.
        const quarantined = opened.report().quarantined.length;
        assert.equal(opened.list().length + quarantined, 60, `a bit flipped at byte ${offset} of ${table} lost programs silently`);
        if (quarantined > 0) seen.quarantined++;
        else seen.complete++;
        await opened.close();
      } catch (err) {
        assert.ok(err instanceof StoreOpenError, String(err));
        if (/has lost \d+ program\(s\) it had acknowledged: 't\d+'/.test(err.message)) seen.lostByName++;
        else seen.unreadable++;
      }
      rmSync(work, { recursive: true, force: true });
    }
    assert.ok(seen.lostByName > 0, `the manifest caught losses LevelDB did not report: ${JSON.stringify(seen)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProgramManifest } from '../../../state/program-manifest.js';
import { ProgramStore } from '../../../state/store.js';

const spec = (name: string) => ({ name, command: 'node', args: ['-e', '0'] });
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

async function inTemp(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-manifest-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void test('manifest: creations append one line each to the snapshot; removals append before they are committed', async () => {
  await inTemp(async (dir) => {
    const store = await ProgramStore.open(dir);
    const file = join(dir, 'state.db', 'SVC-PROGRAMS');
    assert.deepEqual(lines(file), ['{"version":2,"programs":{}}'], 'a snapshot at open');
    const [a] = await store.create([spec('a')]);
    await store.create([spec('b'), spec('c')]);
    const after = lines(file);
    assert.equal(after.length, 4, 'one line per program, not a rewrite');
    assert.deepEqual(JSON.parse(after[1]), ['+', a.id, 'a']);
    await store.remove([a.id]);
    assert.deepEqual(JSON.parse(lines(file)[4]), ['-', a.id]);
    const listed = await new ProgramManifest(join(dir, 'state.db')).read();
    assert.deepEqual([...listed!.values()].sort(), ['b', 'c']);
    await store.close();
    // The next open starts from a fresh snapshot of what LevelDB holds.
    const again = await ProgramStore.open(dir);
    assert.equal(lines(file).length, 1);
    assert.deepEqual(Object.values((JSON.parse(lines(file)[0]) as { programs: Record<string, string> }).programs).sort(), ['b', 'c']);
    await again.close();
  });
});

void test('manifest: a line cut off by a crash is ignored, a damaged line before the end is refused with its number', async () => {
  await inTemp(async (dir) => {
    const manifest = new ProgramManifest(dir);
    await manifest.write([['id-1', 'web']]);
    await manifest.append([{ add: 'id-2', name: 'db' }]);
    await manifest.close();
    appendFileSync(manifest.file, '["+","id-3","ca');
    assert.deepEqual([...(await manifest.read())!], [['id-1', 'web'], ['id-2', 'db']], 'the torn append was never acknowledged');
    appendFileSync(manifest.file, '\n["-","id-1"]\n');
    await assert.rejects(manifest.read(), /SVC-PROGRAMS is not a program manifest \(line 3 is damaged\)/);
  });
});

void test('manifest: a version 1 file (one JSON document, no newline) still reads', async () => {
  await inTemp(async (dir) => {
    const manifest = new ProgramManifest(dir);
    writeFileSync(manifest.file, JSON.stringify({ version: 1, programs: { 'id-1': 'web' } }));
    assert.deepEqual([...(await manifest.read())!], [['id-1', 'web']]);
  });
});

void test('manifest: a renamed program is listed under its new name', async () => {
  await inTemp(async (dir) => {
    const store = await ProgramStore.open(dir);
    const [a] = await store.create([spec('a')]);
    await store.update(a.id, (c) => ({ ...c, name: 'renamed' }));
    assert.deepEqual([...(await new ProgramManifest(join(dir, 'state.db')).read())!], [[a.id, 'renamed']]);
    await store.close();
  });
});

void test('manifest: appended lines are compacted into a new snapshot once they outnumber the programs', async () => {
  await inTemp(async (dir) => {
    const store = await ProgramStore.open(dir);
    const file = join(dir, 'state.db', 'SVC-PROGRAMS');
    let longest = 0;
    for (let i = 0; i < 150; i++) {
      const [p] = await store.create([spec(`p${i}`)]);
      await store.remove([p.id]);
      longest = Math.max(longest, lines(file).length);
    }
    await store.create([spec('kept')]);
    assert.ok(longest <= 257, `the file stays bounded (${longest} lines at most)`);
    assert.ok(lines(file).length < 100, `compacted (${lines(file).length} lines now)`);
    assert.deepEqual([...(await new ProgramManifest(join(dir, 'state.db')).read())!.values()], ['kept']);
    await store.close();
  });
});

void test('manifest: an append that the full disk cuts short is refused (ENOSPC), not taken as written with a torn line left for the next append to follow', async (t) => {
  await inTemp(async (root) => {
    const dir = join(root, 'disk');
    mkdirSync(dir);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { encoding: 'utf8' });
    if (mounted.status !== 0) return t.skip(`needs root to mount a small tmpfs: ${(mounted.stderr || mounted.error?.message || '').trim()}`);
    try {
      const manifest = new ProgramManifest(dir);
      const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      await manifest.write([[id(0), 'p0']]);
      // Fill the file's page to 10 bytes short of its end, then the disk: a line of ~60 bytes fits only in part.
      const size = statSync(manifest.file).size;
      await manifest.append([{ add: id(1), name: 'x'.repeat(4096 - 10 - size - `["+","${id(1)}",""]\n`.length) }]);
      assert.equal(statSync(manifest.file).size, 4096 - 10);
      const filler = openSync(join(dir, 'filler'), 'w');
      try {
        for (;;) writeSync(filler, Buffer.alloc(4096));
      } catch (err) {
        assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
      } finally {
        closeSync(filler);
      }
      await assert.rejects(manifest.append([{ add: id(2), name: 'p2' }]), (err: NodeJS.ErrnoException) => err.code === 'ENOSPC');
      assert.deepEqual([...(await manifest.read())!.keys()], [id(0), id(1)], 'the torn tail is ignored');
      await manifest.close();
    } finally {
      spawnSync('umount', ['-l', dir]);
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLevel } from 'memory-level';
import { ProgramStore, StoreOpenError } from '../../../state/store.js';
import { SvcError } from '../../../state/errors.js';

const withDir = async (fn: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return (err as SvcError).code + ': ' + (err as Error).message;
  }
  return 'no error';
};

// The same behaviour on the real LevelDB and on memory-level (abstract-level compliance).
for (const [kind, open] of [
  ['classic-level', async (dir: string) => ProgramStore.open(dir)],
  ['memory-level', async () => ProgramStore.fromDb(new MemoryLevel())],
] as const) {
  test(`${kind}: create, read by id and by name, change feed`, async () => {
    await withDir(async (dir) => {
      const store = await open(dir);
      // Each change: the ids, and for config changes the command before (null: created).
      const changes: [string[], [string, string | null][]][] = [];
      store.onChange((ids, configs) => changes.push([ids, [...configs].map(([id, before]) => [id, before?.command ?? null])]));
      const [web, api] = await store.create([{ name: 'web', command: 'x' }, { name: 'api', command: 'y' }]);
      assert.equal(store.get(web.id)?.config.name, 'web');
      assert.equal(store.resolve('web')?.id, web.id);
      assert.equal(store.resolve(web.id)?.id, web.id);
      assert.equal(web.intent.run, 'running');
      await store.setIntents([web.id, api.id], (i) => ({ ...i, run: 'stopped' }));
      await store.update(api.id, (c) => ({ ...c, command: 'z' }));
      await store.remove([web.id]);
      assert.deepEqual(changes, [
        [[web.id, api.id], [[web.id, null], [api.id, null]]],
        [[web.id, api.id], []],
        [[api.id], [[api.id, 'y']]],
        [[web.id], [[web.id, 'x']]],
      ]);
      await store.close();
    });
  });

  test(`${kind}: an update to the same configuration writes nothing: no new revision, no change`, async () => {
    await withDir(async (dir) => {
      const store = await open(dir);
      const [web] = await store.create([{ name: 'web', command: 'x', env: { A: '1' } }]);
      const changes: string[][] = [];
      store.onChange((ids) => changes.push(ids));
      // Another key order and an undefined member are the same configuration.
      const same = await store.update(web.id, (c) => ({ env: { A: '1' }, command: c.command, name: c.name, group_name: undefined }), web.updated_at + 5000);
      assert.equal(same.revision, web.revision);
      assert.equal(same.updated_at, web.updated_at);
      assert.deepEqual(changes, []);
      const changed = await store.update(web.id, (c) => ({ ...c, env: { A: '2' } }), web.updated_at + 5000);
      assert.equal(changed.revision, web.revision + 1);
      assert.deepEqual(changes, [[web.id]]);
      await store.close();
    });
  });

  test(`${kind}: duplicate names are a conflict, in one call or across calls; nothing is half-written`, async () => {
    await withDir(async (dir) => {
      const store = await open(dir);
      await store.create([{ name: 'web', command: 'x' }]);
      assert.match(await code(store.create([{ name: 'web', command: 'y' }])), /^SVC_CONFLICT: program 'web': name: a program named 'web' already exists/);
      // Not "already exists": no program 'a' exists, the request names it twice.
      assert.match(await code(store.create([{ name: 'a', command: 'y' }, { name: 'a', command: 'z' }])), /^SVC_CONFLICT: program 'a': name: 'a' is given more than once in this request$/);
      assert.deepEqual(store.list().map((r) => r.config.name), ['web']);
      await store.close();
    });
  });

  test(`${kind}: depends_on unknown names and cycles are refused`, async () => {
    await withDir(async (dir) => {
      const store = await open(dir);
      assert.equal(await code(store.create([{ name: 'api', command: 'x', depends_on: ['db', 'cache'] }])), "SVC_INVALID: program 'api': depends_on: unknown service(s): db, cache");
      await store.create([{ name: 'db', command: 'x' }, { name: 'api', command: 'x', depends_on: ['db'] }]);
      const db = store.getByName('db')!;
      assert.equal(
        await code(store.update(db.id, (c) => ({ ...c, depends_on: ['api'] }))),
        "SVC_INVALID: program 'db': depends_on: dependency cycle detected: db -> api -> db",
        'named from the program being written',
      );
      await store.close();
    });
  });

  test(`${kind}: removing or renaming a depended-on program is refused unless its dependants go too`, async () => {
    await withDir(async (dir) => {
      const store = await open(dir);
      const [db, api] = await store.create([{ name: 'db', command: 'x' }, { name: 'api', command: 'x', depends_on: ['db'] }]);
      assert.match(await code(store.remove([db.id])), /program 'db': cannot remove or rename: required by 'api'/);
      assert.match(await code(store.update(db.id, (c) => ({ ...c, name: 'db2' }))), /required by 'api'/);
      await store.remove([db.id, api.id]);
      assert.equal(store.list().length, 0);
      await store.close();
    });
  });

  test(`${kind}: update of an unknown id is a 400; renames keep the name index right`, async () => {
    await withDir(async (dir) => {
      const store = await open(dir);
      assert.match(await code(store.update('nope', (c) => c)), /^SVC_INVALID: id: program 'nope' not found/);
      const [a] = await store.create([{ name: 'a', command: 'x' }]);
      await store.update(a.id, (c) => ({ ...c, name: 'b' }));
      assert.equal(store.getByName('a'), undefined);
      assert.equal(store.getByName('b')?.id, a.id);
      await store.create([{ name: 'a', command: 'x' }]);
      await store.close();
    });
  });
}

test('classic-level: programs survive close and reopen', async () => {
  await withDir(async (dir) => {
    const store = await ProgramStore.open(dir);
    const [a] = await store.create([{ name: 'a', command: 'x', env: { K: 'v' } }]);
    await store.setIntents([a.id], (i) => ({ ...i, run: 'stopped' }));
    await store.close();
    const again = await ProgramStore.open(dir);
    assert.deepEqual(again.getByName('a')?.config, { name: 'a', command: 'x', env: { K: 'v' } });
    assert.equal(again.getByName('a')?.intent.run, 'stopped');
    await again.close();
  });
});

test('classic-level: a locked store is refused with a clear reason', async () => {
  await withDir(async (dir) => {
    const store = await ProgramStore.open(dir);
    await assert.rejects(ProgramStore.open(dir), (err: Error) => err instanceof StoreOpenError && /locked by another process/.test(err.message));
    await store.close();
  });
});

test('classic-level: a corrupt store is refused, never silently reset', async () => {
  await withDir(async (dir) => {
    const store = await ProgramStore.open(dir);
    await store.create([{ name: 'a', command: 'x' }]);
    await store.close();
    const db = join(dir, 'state.db');
    for (const f of readdirSync(db)) if (/^(MANIFEST|CURRENT)/.test(f)) writeFileSync(join(db, f), 'garbage');
    await assert.rejects(ProgramStore.open(dir), (err: Error) => err instanceof StoreOpenError && /state store/.test(err.message));
  });
});

test('commit refuses a record whose name another program already has', async () => {
  const store = await ProgramStore.fromDb(new MemoryLevel());
  const created = await store.create([{ name: 'a', command: 'x' }]);
  const twin = { ...created[0], id: '00000000-0000-4000-8000-000000000001' };
  assert.match(await code(store.commit({ put: [twin], del: [] })), /^SVC_CONFLICT: program 'a': name: a program named 'a' already exists/);
  assert.equal(store.list().length, 1);
  await store.close();
});

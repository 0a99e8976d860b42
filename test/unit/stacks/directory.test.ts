import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { StackApplier } from '../../../stacks/apply.js';
import { StackDirectory, type FileRecord } from '../../../stacks/directory.js';
import { isStackFileName } from '../../../stacks/file-names.js';
import { ControllerStatusStore } from '../../../state/controller-status.js';
import { ProgramStore } from '../../../state/store.js';

/** A StackDirectory over an in-memory folder, a memory-level store and a fake clock. */
async function setup(opts: { disk?: Map<string, string>; db?: MemoryLevel<string, string>; dir?: string; writers?: (path: string) => number[]; follow?: (paths: ReadonlySet<string>) => void } = {}) {
  const events: string[] = [];
  const disk = opts.disk ?? new Map<string, string>();
  const clock = new FakeClock();
  const db = opts.db ?? new MemoryLevel<string, string>();
  const store = await ProgramStore.fromDb(db);
  const logs: string[] = [];
  const dir = new StackDirectory({
    dir: opts.dir ?? '/stacks',
    clock,
    records: new ControllerStatusStore<FileRecord>(store.meta, 'stacks'),
    applier: new StackApplier(store, { logDir: '/logs', now: () => clock.now() }),
    read: (path) => {
      const text = disk.get(path);
      if (text === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return text;
    },
    log: { info: (m) => logs.push(`info ${m}`), warn: (m) => logs.push(`warn ${m}`) },
    writers: opts.writers,
    follow: opts.follow,
    events: { emit: (e) => events.push(`${e.event} ${e.msg}`) },
  });
  const write = (name: string, text: string) => {
    disk.set(`/stacks/${name}`, text);
    dir.notify(name);
  };
  const remove = (name: string) => {
    disk.delete(`/stacks/${name}`);
    dir.notify(name);
  };
  const settle = async () => {
    clock.advance(300);
    await dir.idle();
  };
  const names = () => store.list().map((r) => `${r.config.name}<${r.config.source}>`).sort();
  /** The start-up pass of stacks/watch.ts over the files directly in /stacks now. */
  const start = async () => {
    await dir.startUp([...disk.keys()].filter((p) => p.startsWith('/stacks/') && !p.slice(8).includes('/')).map((p) => p.slice(8)));
    await settle();
  };
  return { dir, clock, db, disk, store, write, remove, settle, names, logs, start, events };
}

const svc = (name: string, command = 'run') => `[[services]]\nname = "${name}"\ncommand = "${command}"\n`;

test('stack file names: editor swap, lock and backup files are ignored', () => {
  for (const name of ['web.toml', 'a.json', 'b.yaml', 'c.YML']) assert.equal(isStackFileName(name), true, name);
  for (const name of ['.web.toml.swp', 'web.toml~', '.#web.toml', '#web.toml#', '4913', 'notes.txt', '.hidden.toml']) assert.equal(isStackFileName(name), false, name);
});

test('events are debounced: nothing happens before the quiet period, one apply after', async () => {
  const t = await setup();
  t.write('web.toml', svc('web', 'partial'));
  t.clock.advance(200);
  t.write('web.toml', svc('web', 'final'));
  t.clock.advance(299);
  await t.dir.idle();
  assert.deepEqual(t.names(), []);
  await t.settle();
  assert.deepEqual(t.names(), ['web<stack:web.toml>']);
  assert.equal(t.store.list()[0]?.config.command, 'final');
  assert.deepEqual(t.dir.status().files.map((f) => [f.file, f.state, f.lines]), [['web.toml', 'ok', ['created web']]]);
});

test('a file still open for writing after the quiet period waits for its writer, at most maxWriteWaitMs', async () => {
  const open = new Set<string>();
  const t = await setup({ writers: (path) => (open.has(path) ? [4242] : []) });
  open.add('/stacks/web.toml');
  t.write('web.toml', svc('web', 'first-half'));
  for (let i = 0; i < 10; i++) await t.settle(); // 3 s: the writer paused, the file stays open
  assert.deepEqual(t.names(), [], 'not read while a process has it open for writing');
  t.disk.set('/stacks/web.toml', svc('web', 'whole'));
  open.delete('/stacks/web.toml');
  await t.settle();
  assert.deepEqual(t.names(), ['web<stack:web.toml>']);
  assert.equal(t.store.list()[0]?.config.command, 'whole', 'read once, when complete');
  // A writer that never closes it: read as it is after 30 s, with a warning.
  open.add('/stacks/api.toml');
  t.write('api.toml', svc('api'));
  for (let i = 0; i < 99; i++) await t.settle();
  assert.deepEqual(t.names(), ['web<stack:web.toml>']);
  for (let i = 0; i < 2; i++) await t.settle();
  assert.deepEqual(t.names(), ['api<stack:api.toml>', 'web<stack:web.toml>']);
  assert.ok(t.logs.includes('warn stack file still open for writing; read as it is now'), t.logs.join('\n'));
});

test('a broken file is reported and keeps the last good state; fixing it applies again', async () => {
  const t = await setup();
  t.write('web.toml', svc('web'));
  await t.settle();
  t.write('web.toml', '[[services]]\nname = \n');
  await t.settle();
  assert.deepEqual(t.names(), ['web<stack:web.toml>']);
  const [status] = t.dir.status().files;
  assert.equal(status?.state, 'error');
  assert.match(status?.message ?? '', /^web\.toml:2:\d+: /);
  assert.ok(t.logs.some((l) => l.startsWith('warn stack file refused')));
  t.write('web.toml', svc('web', 'v2'));
  await t.settle();
  assert.equal(t.dir.status().files[0]?.state, 'ok');
  assert.deepEqual(t.dir.status().files[0]?.lines, ['updated web (restart)']);
});

test('an empty file (caught just truncated by its writer) is refused and prunes nothing', async () => {
  const t = await setup();
  t.write('web.toml', svc('web') + svc('api'));
  await t.settle();
  for (const empty of ['', '\n  \n']) {
    t.write('web.toml', empty);
    await t.settle();
    assert.deepEqual(t.names(), ['api<stack:web.toml>', 'web<stack:web.toml>']);
    const [status] = t.dir.status().files;
    assert.equal(status?.state, 'error');
    assert.match(status?.message ?? '', /^web\.toml: the file is empty: a stack document is required/);
  }
  t.write('web.toml', 'services = []\n');
  await t.settle();
  assert.deepEqual(t.names(), [], 'an explicit empty list still removes the programs');
});

test('deleting a file prunes what it created, and only that', async () => {
  const t = await setup();
  t.write('a.toml', svc('a1') + svc('a2'));
  t.write('b.toml', svc('b1'));
  await t.settle();
  assert.deepEqual(t.names(), ['a1<stack:a.toml>', 'a2<stack:a.toml>', 'b1<stack:b.toml>']);
  t.remove('a.toml');
  await t.settle();
  assert.deepEqual(t.names(), ['b1<stack:b.toml>']);
  assert.deepEqual(t.dir.status().files.map((f) => [f.file, f.state]), [['a.toml', 'removed'], ['b.toml', 'ok']]);
});

test('a file owns its programs: a service removed from it is pruned without prune = true, and only its own', async () => {
  const t = await setup();
  t.write('a.toml', `prune = false\ninclude = ["lib/x.toml"]\n${svc('a1')}${svc('a2')}`);
  t.disk.set('/stacks/lib/x.toml', svc('x1'));
  t.write('b.toml', svc('b1'));
  await t.settle();
  assert.deepEqual(t.names(), ['a1<stack:a.toml>', 'a2<stack:a.toml>', 'b1<stack:b.toml>', 'x1<include:lib/x.toml>']);
  t.write('a.toml', svc('a1'));
  await t.settle();
  assert.deepEqual(t.names(), ['a1<stack:a.toml>', 'b1<stack:b.toml>'], 'a2 and the dropped include are pruned; b.toml is untouched');
  assert.deepEqual(t.dir.status().files.find((f) => f.file === 'a.toml')?.lines, ['unchanged a1', 'pruned a2', 'pruned x1']);
});

test('a service two files list is handed to the other file when it leaves one, never pruned while listed', async () => {
  const t = await setup();
  t.write('a.toml', svc('shared') + svc('a1'));
  await t.settle();
  t.write('b.toml', svc('shared') + svc('b1'));
  await t.settle();
  assert.deepEqual(t.names(), ['a1<stack:a.toml>', 'b1<stack:b.toml>', 'shared<stack:b.toml>'], 'the file applied last owns it');
  assert.ok(t.logs.includes('warn services listed in more than one stack file: the file applied last owns them'), t.logs.join('\n'));
  // svc stack status says it on both files, with the owner, not only the daemon log.
  const warnings = () => t.dir.status().files.map((f) => [f.file, f.warning ?? null]);
  assert.deepEqual(warnings(), [
    ['a.toml', 'listed in another stack file too: shared (also in b.toml; b.toml owns it: the file applied last)'],
    ['b.toml', 'listed in another stack file too: shared (also in a.toml; this file owns it: the file applied last)'],
  ]);
  const id = t.store.resolve('shared')?.id;
  t.remove('b.toml');
  await t.settle();
  await t.settle(); // a.toml applies again and takes it over
  assert.deepEqual(t.names(), ['a1<stack:a.toml>', 'shared<stack:a.toml>'], 'a.toml still lists it');
  assert.deepEqual(warnings(), [
    ['a.toml', null],
    ['b.toml', null],
  ]);
  assert.equal(t.store.resolve('shared')?.id, id, 'the same program: not pruned and created again');
  t.write('b.toml', svc('shared'));
  await t.settle();
  t.write('b.toml', svc('b2'));
  await t.settle();
  await t.settle();
  assert.deepEqual(t.names(), ['a1<stack:a.toml>', 'b2<stack:b.toml>', 'shared<stack:a.toml>'], 'edited out of b.toml: back to a.toml');
  assert.equal(t.store.resolve('shared')?.id, id);
  t.remove('a.toml');
  await t.settle();
  assert.deepEqual(t.names(), ['b2<stack:b.toml>'], 'listed by no file: pruned');
});

test('a file that needs another file (depends_on) is retried after that file applies', async () => {
  const t = await setup();
  t.write('api.toml', svc('api') + 'depends_on = ["db"]\n');
  await t.settle();
  assert.equal(t.dir.status().files[0]?.state, 'error');
  t.write('db.toml', svc('db'));
  await t.settle();
  await t.settle();
  assert.deepEqual(t.names(), ['api<stack:api.toml>', 'db<stack:db.toml>']);
});

test('two files written together, one needing the other (depends_on): both apply, and no refusal is recorded', async () => {
  const t = await setup();
  // api.toml sorts (and here arrives) first: it is refused once, while db.toml is still pending.
  t.write('api.toml', svc('api') + 'depends_on = ["db"]\n');
  t.clock.advance(5);
  t.write('db.toml', svc('db'));
  await t.settle();
  await t.settle();
  assert.deepEqual(t.names(), ['api<stack:api.toml>', 'db<stack:db.toml>']);
  assert.deepEqual(t.dir.status().files.map((f) => [f.file, f.state]), [['api.toml', 'ok'], ['db.toml', 'ok']]);
  assert.deepEqual(t.events.filter((e) => e.startsWith('stack_apply_failed')), [], t.events.join('\n'));
  // The same at start-up, where every file is handled at once.
  const t2 = await setup();
  t2.disk.set('/stacks/api.toml', svc('api') + 'depends_on = ["db"]\n');
  t2.disk.set('/stacks/db.toml', svc('db'));
  await t2.start();
  assert.deepEqual(t2.names(), ['api<stack:api.toml>', 'db<stack:db.toml>']);
  assert.deepEqual(t2.events.filter((e) => e.startsWith('stack_apply_failed')), [], t2.events.join('\n'));
});

test('a refusal held back while other files were pending is reported once they are handled', async () => {
  const t = await setup();
  t.write('api.toml', svc('api') + 'depends_on = ["nowhere"]\n');
  t.write('db.toml', svc('db'));
  await t.settle();
  assert.deepEqual(t.names(), ['db<stack:db.toml>']);
  assert.deepEqual(t.dir.status().files.map((f) => [f.file, f.state]), [['api.toml', 'error'], ['db.toml', 'ok']]);
  const failed = t.events.filter((e) => e.startsWith('stack_apply_failed'));
  assert.equal(failed.length, 1, t.events.join('\n'));
  assert.match(failed[0], /stack:api\.toml: refused.*nowhere/);
});

test('a stack file deleted while svcd is down is pruned at its next start, with its includes; nothing else is', async () => {
  const t1 = await setup();
  t1.disk.set('/stacks/lib/common.toml', svc('shared'));
  t1.write('gone.toml', `include = ["lib/common.toml"]\n${svc('a')}`);
  t1.write('kept.toml', svc('k'));
  await t1.settle();
  await t1.store.create([{ name: 'cli', command: 'run', source: 'stack:cli.toml' }]); // svc apply cli.toml
  assert.deepEqual(t1.names(), ['a<stack:gone.toml>', 'cli<stack:cli.toml>', 'k<stack:kept.toml>', 'shared<include:lib/common.toml>']);

  // svcd is down: the file goes.
  t1.disk.delete('/stacks/gone.toml');
  const t2 = await setup({ disk: t1.disk, db: t1.db });
  await t2.start();
  assert.deepEqual(t2.names(), ['cli<stack:cli.toml>', 'k<stack:kept.toml>'], 'as the watch would have: its programs and its includes');
  assert.deepEqual(t2.dir.status().files.map((f) => [f.file, f.state, f.lines]), [
    ['gone.toml', 'removed', ['pruned a', 'pruned shared']],
    ['kept.toml', 'ok', ['unchanged k']],
  ]);

  // The record went with it: the next start has nothing more to prune.
  const t3 = await setup({ disk: t1.disk, db: t1.db });
  await t3.start();
  assert.deepEqual(t3.dir.status().files.map((f) => f.file), ['kept.toml']);
});

test('records of another stacks directory ([stacks] dir changed) prune nothing', async () => {
  const t1 = await setup();
  t1.write('web.toml', svc('web'));
  await t1.settle();

  const t2 = await setup({ disk: new Map(), db: t1.db, dir: '/elsewhere' });
  await t2.start();
  assert.deepEqual(t2.names(), ['web<stack:web.toml>']);
});

test('a deleted file whose programs another file needed is pruned once that file is deleted too', async () => {
  const t = await setup();
  t.write('db.toml', svc('db'));
  await t.settle();
  t.write('web.toml', svc('web') + 'depends_on = ["db"]\n');
  await t.settle();
  t.remove('db.toml');
  await t.settle();
  assert.deepEqual(t.names(), ['db<stack:db.toml>', 'web<stack:web.toml>'], 'web still needs db: the removal is refused');
  assert.equal(t.dir.status().files.find((f) => f.file === 'db.toml')?.state, 'error');
  t.remove('web.toml');
  await t.settle();
  await t.settle(); // db.toml is handled again
  assert.deepEqual(t.names(), [], 'nothing needs db any more: it goes with its deleted file');
  assert.deepEqual(t.dir.status().files.map((f) => [f.file, f.state]), [['db.toml', 'removed'], ['web.toml', 'removed']]);
});

test('files deleted while svcd was down are all pruned at its next start, whatever the order of their depends_on', async () => {
  const t1 = await setup();
  t1.write('a-db.toml', svc('db'));
  await t1.settle();
  t1.write('b-web.toml', svc('web') + 'depends_on = ["db"]\n');
  await t1.settle();
  t1.disk.delete('/stacks/a-db.toml');
  t1.disk.delete('/stacks/b-web.toml');
  const t2 = await setup({ disk: t1.disk, db: t1.db });
  await t2.start();
  await t2.settle();
  assert.deepEqual(t2.names(), []);
});

test('a service moved to another file while svcd was down is kept at its next start, not pruned and created again', async () => {
  const t1 = await setup();
  t1.write('b.toml', svc('shared') + svc('b1'));
  await t1.settle();
  t1.write('a.toml', svc('shared') + svc('a1'));
  await t1.settle();
  assert.deepEqual(t1.names(), ['a1<stack:a.toml>', 'b1<stack:b.toml>', 'shared<stack:a.toml>']);
  const id = t1.store.resolve('shared')?.id;
  t1.disk.delete('/stacks/a.toml');
  const t2 = await setup({ disk: t1.disk, db: t1.db });
  await t2.start();
  await t2.settle();
  assert.deepEqual(t2.names(), ['b1<stack:b.toml>', 'shared<stack:b.toml>']);
  assert.equal(t2.store.resolve('shared')?.id, id, 'the same program: b.toml still lists it');
});

test('an included file is followed: editing it, or creating it when it was missing, applies the file that includes it', async () => {
  let followed: string[] = [];
  const t = await setup({ follow: (paths) => (followed = [...paths].sort()) });
  t.write('web.toml', `include = ["lib/common.toml"]\n${svc('web')}`);
  await t.settle();
  assert.equal(t.dir.status().files[0]?.state, 'error', 'the include is missing');
  assert.deepEqual(followed, ['/stacks/lib/common.toml'], 'a missing include is followed too');
  t.disk.set('/stacks/lib/common.toml', svc('redis'));
  t.dir.notifyPath('/stacks/lib/common.toml');
  await t.settle();
  assert.deepEqual(t.names(), ['redis<include:lib/common.toml>', 'web<stack:web.toml>']);
  t.disk.set('/stacks/lib/common.toml', svc('redis', 'redis-server --port 6380'));
  t.dir.notifyPath('/stacks/lib/common.toml');
  t.dir.notifyPath('/stacks/lib/unrelated.toml');
  await t.settle();
  assert.deepEqual(t.dir.status().files[0]?.lines, ['updated redis (restart)', 'unchanged web']);
  assert.equal(t.store.resolve('redis')?.config.command, 'redis-server --port 6380');
  t.write('web.toml', svc('web'));
  await t.settle();
  assert.deepEqual(followed, [], 'no file includes it any more');
  assert.deepEqual(t.names(), ['web<stack:web.toml>']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { StackApplier } from '../../../stacks/apply.js';
import { loadStackText } from '../../../stacks/load.js';
import { ProgramStore } from '../../../state/store.js';

async function setup() {
  const store = await ProgramStore.fromDb(new MemoryLevel<string, string>());
  const applier = new StackApplier(store, { logDir: '/logs', now: () => 1_700_000_000_000 });
  const apply = (services: object[], extra: { prune?: boolean; dryRun?: boolean; expectPlan?: string } = {}) => applier.apply({ stack: loadStackText(JSON.stringify({ services }), 'json'), source: 'stack:a.toml', ...extra });
  return { store, apply };
}

test('a stop written while a stack apply is on its way is kept: the apply writes its change onto the program as it is then', async () => {
  const t = await setup();
  await t.apply([{ name: 'web', command: 'run' }]);
  const id = t.store.getByName('web')!.id;
  // Both at once: `svc stop web` while a watched file that raises web's priority applies.
  const stop = t.store.setIntents([id], (i) => ({ ...i, run: 'stopped' }));
  const applied = t.apply([{ name: 'web', command: 'run', priority: 5 }]);
  await Promise.all([stop, applied]);
  assert.equal(t.store.get(id)?.config.priority, 5, 'the stack change is written');
  assert.equal(t.store.get(id)?.intent.run, 'stopped', 'and the stop is not undone');
});

test('a program created by the API while a stack that creates the same name is on its way: the stack takes it over', async () => {
  const t = await setup();
  const created = t.store.create([{ name: 'web', command: 'run', source: 'cli:add' }]);
  const applied = t.apply([{ name: 'web', command: 'run' }]);
  const [[record], result] = await Promise.all([created, applied]);
  assert.deepEqual(result.lines, ['updated web']);
  assert.equal(t.store.list().length, 1);
  assert.equal(t.store.get(record.id)?.config.source, 'stack:a.toml');
});

test('a dry run names its plan; the apply given that plan id does it, and the same stack against the same programs has the same id', async () => {
  const t = await setup();
  await t.apply([{ name: 'db', command: 'run' }]);
  const services = [{ name: 'web', command: 'run', env: { A: '1', B: '2' } }, { name: 'db', command: 'run', priority: 3 }];
  const dry = await t.apply(services, { dryRun: true });
  assert.match(dry.plan, /^[0-9a-f]{16}$/);
  assert.equal((await t.apply(services, { dryRun: true })).plan, dry.plan, 'new programs get random ids: the plan id does not depend on them');
  const reordered = [{ name: 'web', env: { B: '2', A: '1' }, command: 'run' }, { name: 'db', command: 'run', priority: 3 }];
  assert.equal((await t.apply(reordered, { dryRun: true })).plan, dry.plan, 'key order in the stack does not count');
  const applied = await t.apply(services, { expectPlan: dry.plan });
  assert.deepEqual(applied.lines, ['created web', 'updated db']);
  assert.equal(applied.plan, dry.plan);
  assert.equal(t.store.getByName('db')?.config.priority, 3);
});

test('an apply whose plan changed since its dry run is refused (409) and writes nothing: a program it names changed, or the stack did', async () => {
  const t = await setup();
  await t.apply([{ name: 'db', command: 'run' }]);
  const services = [{ name: 'web', command: 'run' }, { name: 'db', command: 'run', priority: 3 }];
  const dry = await t.apply(services, { dryRun: true });
  // Someone changes db by hand between the review and the deploy: the plan still reads "updated db", yet from another db.
  const db = t.store.getByName('db')!;
  await t.store.update(db.id, (c) => ({ ...c, cwd: '/srv' }));
  await assert.rejects(t.apply(services, { expectPlan: dry.plan }), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'SVC_CONFLICT');
    assert.match(err.message, /^plan: the plan is [0-9a-f]{16} now, not [0-9a-f]{16} \(the stack or a program it names changed since that dry run\); nothing was changed/);
    return true;
  });
  assert.equal(t.store.getByName('web'), undefined, 'nothing created');
  assert.equal(t.store.getByName('db')?.config.priority, undefined, 'nothing updated');
  const again = await t.apply(services, { dryRun: true });
  await assert.rejects(t.apply([...services, { name: 'extra', command: 'run' }], { expectPlan: again.plan }), /plan: the plan is/, 'another stack is another plan');
  await assert.rejects(t.apply([{ name: 'db', command: 'run' }], { expectPlan: again.plan }), /plan: the plan is/, 'a stack that now changes nothing is another plan too');
  const done = await t.apply(services, { expectPlan: again.plan });
  assert.deepEqual(done.lines, ['created web', 'updated db (restart)'], 'the plan reviewed again: it puts back the cwd changed by hand');
});

test('a stop or a restart of a program between the dry run and the apply does not change the plan', async () => {
  const t = await setup();
  await t.apply([{ name: 'db', command: 'run' }]);
  const services = [{ name: 'db', command: 'run', priority: 3 }];
  const dry = await t.apply(services, { dryRun: true });
  const db = t.store.getByName('db')!;
  await t.store.setIntents([db.id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  assert.deepEqual((await t.apply(services, { expectPlan: dry.plan })).lines, ['updated db']);
});

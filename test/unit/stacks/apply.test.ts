import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { StackApplier } from '../../../stacks/apply.js';
import { loadStackText } from '../../../stacks/load.js';
import { ProgramStore } from '../../../state/store.js';

async function setup() {
  const store = await ProgramStore.fromDb(new MemoryLevel<string, string>());
  const applier = new StackApplier(store, { logDir: '/logs', now: () => 1_700_000_000_000 });
  const apply = (services: object[], extra: { prune?: boolean; dryRun?: boolean } = {}) => applier.apply({ stack: loadStackText(JSON.stringify({ services }), 'json'), source: 'stack:a.toml', ...extra });
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

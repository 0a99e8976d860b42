import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { stalledDependencies } from '../../../operations/stalled-dependencies.js';
import { ObservedRegistry } from '../../../state/observed.js';
import { ProgramStore } from '../../../state/store.js';

test('stalled dependencies: down with no start pending, or held behind one; a dependency on its way is none', async () => {
  const store = await ProgramStore.fromDb(new MemoryLevel());
  const observed = new ObservedRegistry();
  const [db, api, web] = await store.create([
    { name: 'db', command: 'x', autostart: false },
    { name: 'api', command: 'x', depends_on: ['db'] },
    { name: 'web', command: 'x', depends_on: ['api'] },
  ]);
  observed.update(api.id, { status: 'Starting', detail: 'waiting for db (Stopped)' });
  observed.update(web.id, { status: 'Starting', detail: 'waiting for api (Starting)' });
  const stalled = (id: string) => stalledDependencies(store, observed, id);
  assert.deepEqual(stalled(api.id), ['db (Stopped)']);
  assert.deepEqual(stalled(web.id), ['api (Starting)'], 'held behind a stalled one');

  const [asked] = await store.setIntents([db.id], (i) => ({ ...i, run: 'running', start_seq: i.start_seq + 1 }));
  assert.deepEqual(stalled(api.id), [], 'a start of db is pending');
  observed.update(db.id, { status: 'Fatal', applied_start_seq: asked.intent.start_seq });
  assert.deepEqual(stalled(api.id), ['db (Fatal)'], 'Fatal: only a start revives it');
  observed.update(db.id, { status: 'Backoff' });
  assert.deepEqual(stalled(web.id), [], 'Backoff comes back by itself');
  observed.update(api.id, { status: 'Running', detail: null });
  assert.deepEqual(stalled(api.id), [], 'not held');
  await store.close();
});

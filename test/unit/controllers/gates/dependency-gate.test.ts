import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { dependencyBlocker } from '../../../../controllers/gates/dependency-gate.js';
import { ObservedRegistry } from '../../../../state/observed.js';
import { ProgramStore } from '../../../../state/store.js';

test('the depends_on gate: Healthy for checked dependencies, alive for others, an active schedule for cron', async () => {
  const store = await ProgramStore.fromDb(new MemoryLevel());
  const observed = new ObservedRegistry();
  const [db, cache, job, app] = await store.create([
    { name: 'db', command: 'x', health_check: { type: 'tcp', port: 5432 } },
    { name: 'cache', command: 'x' },
    { name: 'job', command: 'x', cron: '0 3 * * *' },
    { name: 'app', command: 'x', depends_on: ['db', 'cache', 'job'] },
  ]);
  const gate = () => dependencyBlocker(store, observed, app.id);
  assert.equal(gate(), 'waiting for db (Stopped, needs Healthy), cache (Stopped), job (Stopped)');
  observed.update(db.id, { status: 'Running' });
  observed.update(cache.id, { status: 'Unhealthy' });
  observed.update(job.id, { status: 'Scheduled' });
  assert.equal(gate(), 'waiting for db (Running, needs Healthy)');
  observed.update(db.id, { status: 'Healthy' });
  assert.equal(gate(), null);
  await store.close();
});

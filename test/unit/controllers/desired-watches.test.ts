import { test } from 'node:test';
import assert from 'node:assert/strict';
import { otaHarness } from '../../helpers/ota-harness.js';

/** Passes each controller ran for one step (woken keys reconciled). */
async function passesOf(h: Awaited<ReturnType<typeof otaHarness>>, step: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = h.passes();
  await step();
  await h.settle();
  const after = h.passes();
  return Object.fromEntries(Object.entries(after).map(([name, n]) => [name, n - (before[name] ?? 0)]));
}

test('programs without a health check or artifact wake only the process controller: created, stopped, edited', async () => {
  const h = await otaHarness();
  try {
    let ids: string[] = [];
    const create = await passesOf(h, async () => (ids = (await h.store.create(['a', 'b', 'c'].map((name) => ({ name, command: 'app' })))).map((r) => r.id)));
    assert.deepEqual([create.health, create.ota], [0, 0]);
    assert.ok(create.process >= 3);
    const stop = await passesOf(h, () => h.store.setIntents(ids, (i) => ({ ...i, run: 'stopped', force: false })));
    assert.ok(stop.process >= 3, `process passes ${stop.process}`);
    assert.equal(stop.health, 0, 'no health check: neither the write nor the exits wake health');
    assert.equal(stop.ota, 0, 'no artifact: the intent does not concern OTA');
    assert.ok(ids.every((id) => h.observed.get(id).status === 'Stopped'));

    const edit = await passesOf(h, () => h.store.update(ids[0], (c) => ({ ...c, command: 'app2' })));
    assert.deepEqual([edit.health, edit.ota], [0, 0], 'an edit that adds neither');
    const check = await passesOf(h, () => h.store.update(ids[0], (c) => ({ ...c, health_check: { type: 'tcp', port: 8080 } })));
    assert.deepEqual([check.health, check.ota], [1, 0], 'a check added wakes health for that program');
    const dropped = await passesOf(h, () => h.store.update(ids[0], (c) => ({ ...c, health_check: undefined })));
    assert.equal(dropped.health, 1, 'and so does a check removed');
    const removed = await passesOf(h, () => h.store.remove([ids[1]]));
    assert.deepEqual([removed.health, removed.ota], [0, 0]);
  } finally {
    await h.close();
  }
});

test('an intent still wakes OTA for a program with an artifact, and health for one with a check', async () => {
  const h = await otaHarness();
  try {
    const id = await h.add({}, { health_check: { type: 'tcp', port: 8080 } });
    const stop = await passesOf(h, () => h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false })));
    assert.ok(stop.ota >= 1, `ota passes ${stop.ota}`);
    assert.ok(stop.health >= 1, 'the process going away wakes health (its verdict is withdrawn)');
    assert.equal(h.observed.get(id).health ?? null, null);
  } finally {
    await h.close();
  }
});

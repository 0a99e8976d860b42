import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { startWatch } from '../../../../api/watch/session.js';
import type { WatchMessage } from '../../../../api/wire.js';
import { ObservedRegistry } from '../../../../state/observed.js';
import { ProgramStore } from '../../../../state/store.js';
import { DepartingPrograms } from '../../../../state/departing.js';

async function setup() {
  const clock = new FakeClock(1_000_000);
  const store = await ProgramStore.fromDb(new MemoryLevel<string, string>());
  const observed = new ObservedRegistry();
  const [web] = await store.create([{ name: 'web', command: 'sleep', args: ['9'], source: 'stack:web.toml' }]);
  observed.update(web.id, { status: 'Running', pid: 7, started_at: 5 });
  const messages: WatchMessage[] = [];
  const stop = startWatch({ store, observed, systemStats: () => ({ cpu_percent: 1, memory_used_bytes: 2, memory_total_bytes: 3, timestamp: 4 }), clock }, (m) => messages.push(m), { windowMs: 200, systemMs: 3000 });
  return { clock, store, observed, messages, stop, web: web };
}

void test('the first message is a snapshot of every program and the system line', async () => {
  const { messages, stop, web } = await setup();
  assert.deepEqual(messages, [
    {
      type: 'snapshot',
      programs: [{ id: web.id, name: 'web', group_name: null, status: 'Running', pid: 7, cpu_usage: 0, mem_usage: 0, restarts: 0, started_at: 5, health: null, source: 'stack:web.toml' }],
      system: { cpu_percent: 1, memory_used_bytes: 2, memory_total_bytes: 3, timestamp: 4 },
    },
  ]);
  stop();
});

void test('changes after the snapshot stream as program, removed and system messages', async () => {
  const { clock, store, observed, messages, stop, web } = await setup();
  observed.update(web.id, { status: 'Healthy', health: { healthy: true, failures: 0, successes: 1, last: null, recent: [] } });
  const [db] = await store.create([{ name: 'db', command: 'sleep', args: ['9'] }]);
  clock.advance(0);
  assert.deepEqual(
    messages.slice(1).map((m) => (m.type === 'program' ? `${m.program.name} ${m.program.status} ${JSON.stringify(m.program.health)}` : m.type)),
    ['web Healthy {"healthy":true,"failures":0}', 'db Stopped null'],
  );
  await store.remove([db.id]);
  clock.advance(200);
  assert.deepEqual(messages.at(-1), { type: 'removed', id: db.id });
  clock.advance(3000);
  assert.equal(messages.at(-1)?.type, 'system');
  stop();
  const count = messages.length;
  observed.update(web.id, { pid: 8 });
  clock.advance(10_000);
  assert.equal(messages.length, count, 'nothing after stop');
  assert.equal(clock.nextTimerAt(), null, 'no timer left');
});

void test('a change in the same turn as the snapshot is not lost', async () => {
  const clock = new FakeClock(0);
  const store = await ProgramStore.fromDb(new MemoryLevel<string, string>());
  const observed = new ObservedRegistry();
  const [a] = await store.create([{ name: 'a', command: 'sleep' }]);
  const messages: WatchMessage[] = [];
  // The change lands while the snapshot is being delivered (the first send).
  const stop = startWatch(
    { store, observed, systemStats: () => null, clock },
    (m) => {
      messages.push(m);
      if (m.type === 'snapshot') observed.update(a.id, { status: 'Running', pid: 3 });
    },
    { windowMs: 200, systemMs: 3000 },
  );
  clock.advance(0);
  assert.equal(messages[1]?.type === 'program' && messages[1].program.pid, 3);
  stop();
});

void test('a watching client counts as reading usage figures', async () => {
  const { clock, observed, stop } = await setup();
  assert.equal(observed.lastUsageRead, 1_000_000);
  clock.advance(3000);
  assert.equal(observed.lastUsageRead, 1_003_000);
  stop();
});

void test('a removed program whose process is still stopping is sent marked removed, and removed once it has ended', async () => {
  const clock = new FakeClock(0);
  const store = await ProgramStore.fromDb(new MemoryLevel<string, string>());
  const observed = new ObservedRegistry();
  const departing = new DepartingPrograms();
  const [a, b] = await store.create([{ name: 'a', command: 'sleep' }, { name: 'b', command: 'sleep' }]);
  observed.update(a.id, { status: 'Running', pid: 7 });
  observed.update(b.id, { status: 'Running', pid: 8 });
  // b was removed before the client came: its snapshot has it, as Stopping.
  await store.remove([b.id]);
  departing.set(b.id, { record: b, pid: 8 });
  const messages: WatchMessage[] = [];
  const stop = startWatch({ store, observed, departing, systemStats: () => null, clock }, (m) => messages.push(m), { windowMs: 200, systemMs: 3000 });
  const snapshot = messages[0].type === 'snapshot' ? messages[0].programs : [];
  assert.deepEqual(snapshot.map((p) => `${p.name} ${p.status} ${p.pid} ${p.removed ?? ''}`), ['a Running 7 ', 'b Stopping 8 true']);
  // a is removed while the client watches: it turns into a removed entry, then goes.
  await store.remove([a.id]);
  departing.set(a.id, { record: a, pid: 7 });
  clock.advance(0);
  const sent = messages.at(-1);
  assert.ok(sent?.type === 'program' && sent.program.id === a.id && sent.program.removed === true && sent.program.status === 'Stopping', JSON.stringify(sent));
  departing.delete(a.id);
  departing.delete(b.id);
  clock.advance(200);
  assert.deepEqual(messages.slice(-2).map((m) => (m.type === 'removed' ? m.id : m.type)).sort(), [a.id, b.id].sort());
  stop();
});

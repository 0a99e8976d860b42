import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Controller } from '../../../reconciler/controller.js';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { ControllerManager } from '../../../reconciler/manager.js';

type C = Controller<string, string[], { id: string; flag: boolean }>;

function recorder(name: string, log: string[], watches: C['watches'], extra: Partial<C> = {}): C {
  return {
    name,
    watches,
    reconcile: async (key) => {
      log.push(`${name}:${key}`);
    },
    ...extra,
  };
}

test('changes reach each controller through its own watches only', async () => {
  const log: string[] = [];
  const m = new ControllerManager<string, string[], { id: string; flag: boolean }>({ clock: new FakeClock(), onError: () => undefined });
  m.register(recorder('a', log, { desired: (ids) => ids }));
  m.register(recorder('b', log, { observed: (o) => (o.flag ? [o.id] : []) }));
  await m.start();
  m.desiredChanged(['x', 'y']);
  m.observedChanged({ id: 'z', flag: false });
  m.observedChanged({ id: 'w', flag: true });
  await m.idle();
  assert.deepEqual(log.sort(), ['a:x', 'a:y', 'b:w']);
  await m.stop();
});

test('prepare runs in registration order before any loop; stop closes in reverse', async () => {
  const log: string[] = [];
  const m = new ControllerManager<string, string[], { id: string; flag: boolean }>({ clock: new FakeClock(), onError: () => undefined });
  for (const name of ['first', 'second']) {
    m.register(recorder(name, log, {}, { prepare: async () => void log.push(`prepare ${name}`), initialKeys: () => ['k'], close: async () => void log.push(`close ${name}`) }));
  }
  await m.start();
  await m.idle();
  await m.stop();
  assert.deepEqual(log, ['prepare first', 'prepare second', 'first:k', 'second:k', 'close second', 'close first']);
  assert.deepEqual(m.names(), ['first', 'second']);
});

test('a reconcile that throws is reported, counted and retried; the loop keeps going', async () => {
  const clock = new FakeClock();
  const errors: string[] = [];
  let calls = 0;
  const m = new ControllerManager<string, string[], { id: string; flag: boolean }>({ clock, onError: (name, key, err) => errors.push(`${name} ${String(key)} ${(err as Error).message}`) });
  m.register({
    name: 'flaky',
    watches: { desired: (ids) => ids },
    reconcile: async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    },
  });
  await m.start();
  m.desiredChanged(['k']);
  await m.idle();
  assert.deepEqual(errors, ['flaky k boom']);
  assert.equal(m.stats()[0].errors, 1);
  assert.equal(m.stats()[0].delayed, 1, 'requeued with rate-limited backoff');
  clock.advance(50);
  await m.idle();
  assert.equal(calls, 2);
  assert.equal(m.stats()[0].passes, 2);
  await m.stop();
});

test('registering a second controller with the same name, or after start, is a programming error', async () => {
  const m = new ControllerManager<string, string[], { id: string; flag: boolean }>({ clock: new FakeClock(), onError: () => undefined });
  m.register(recorder('one', [], {}));
  assert.throws(() => m.register(recorder('one', [], {})), /registered twice/);
  await m.start();
  assert.throws(() => m.register(recorder('two', [], {})), /after start/);
  await m.stop();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { sameEntry, WatchCoalescer } from '../../../../api/watch/coalescer.js';
import type { WatchMessage, WatchProgram } from '../../../../api/wire.js';

function entry(id: string, extra: Partial<WatchProgram> = {}): WatchProgram {
  return { id, name: id, group_name: null, status: 'Running', pid: 10, cpu_usage: 0, mem_usage: 1000, restarts: 0, started_at: 1, health: null, source: null, ...extra };
}

/** A coalescer over a mutable table of entries; `sent` records every message with its time. */
function setup(windowMs = 200) {
  const clock = new FakeClock(0);
  const table = new Map<string, WatchProgram>();
  const sent: { at: number; message: WatchMessage }[] = [];
  const c = new WatchCoalescer({ clock, windowMs, read: (id) => table.get(id) ?? null, send: (message) => sent.push({ at: clock.now(), message }) });
  const set = (e: WatchProgram) => {
    table.set(e.id, e);
    c.touch(e.id);
  };
  return { clock, table, sent, c, set };
}

void test('a change is sent after the current burst, with the entry as it is then', () => {
  const { clock, sent, set } = setup();
  set(entry('a', { status: 'Starting' }));
  set(entry('a', { status: 'Running', pid: 42 }));
  assert.equal(sent.length, 0, 'nothing goes out inside the burst');
  clock.advance(0);
  assert.deepEqual(sent, [{ at: 0, message: { type: 'program', program: entry('a', { status: 'Running', pid: 42 }) } }]);
});

void test('a program changing every 10 ms gets at most one message per window', () => {
  const { clock, sent, set } = setup(200);
  for (let t = 0; t < 1000; t += 10) {
    set(entry('a', { cpu_usage: t }));
    clock.advance(10);
  }
  clock.advance(200);
  const times = sent.map((s) => s.at);
  for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= 200, `messages at ${times.join(',')}`);
  assert.ok(sent.length >= 5 && sent.length <= 6, `${sent.length} messages for 100 changes`);
  // The last state always arrives (the trailing edge of the window).
  const last = sent.at(-1)?.message;
  assert.equal(last?.type === 'program' && last.program.cpu_usage, 990);
});

void test('windows are per program: a busy program does not delay another', () => {
  const { clock, sent, set } = setup(200);
  set(entry('a', { cpu_usage: 1 }));
  clock.advance(0);
  set(entry('a', { cpu_usage: 2 }));
  clock.advance(50);
  set(entry('b', { cpu_usage: 1 }));
  clock.advance(0);
  assert.deepEqual(sent.map((s) => [s.at, s.message.type === 'program' ? s.message.program.id : '']), [[0, 'a'], [50, 'b']]);
  clock.advance(150);
  assert.deepEqual(sent.map((s) => s.at), [0, 50, 200]);
});

void test('an entry equal to what the client has is not sent again', () => {
  const { clock, sent, c, set } = setup();
  c.seed([entry('a')]);
  set(entry('a'));
  clock.advance(500);
  assert.equal(sent.length, 0);
  set(entry('a', { health: { healthy: true, failures: 0 } }));
  clock.advance(0);
  assert.equal(sent.length, 1);
});

void test('a removed program the client knows becomes removed; one it never saw is not mentioned', () => {
  const { clock, table, sent, c, set } = setup();
  c.seed([entry('a')]);
  table.delete('a');
  c.touch('a');
  set(entry('b'));
  table.delete('b');
  clock.advance(0);
  assert.deepEqual(sent.map((s) => s.message), [{ type: 'removed', id: 'a' }]);
  c.touch('a');
  clock.advance(1000);
  assert.equal(sent.length, 1, 'removed only once');
});

void test('close cancels what is pending', () => {
  const { clock, sent, c, set } = setup();
  set(entry('a'));
  c.close();
  clock.advance(1000);
  c.touch('a');
  clock.advance(1000);
  assert.equal(sent.length, 0);
  assert.equal(clock.nextTimerAt(), null);
});

void test('sameEntry compares every field and the health verdict', () => {
  assert.ok(sameEntry(entry('a', { health: { healthy: null, failures: 0 } }), entry('a', { health: { healthy: null, failures: 0 } })));
  assert.ok(!sameEntry(entry('a', { health: { healthy: false, failures: 1 } }), entry('a', { health: { healthy: false, failures: 2 } })));
  assert.ok(!sameEntry(entry('a'), entry('a', { next_fire_at: 5 })));
  assert.ok(!sameEntry(entry('a'), entry('a', { source: 'stack:x.toml' })));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planAdoption, type Owner } from '../../../controllers/process/boot-adoption.js';
import type { RuntimeRecord } from '../../../state/runtime-store.js';
import type { Recovered } from '../../../controllers/os/port.js';

const proc: Owner = { kind: 'process', stopsecs: 7 };
const live = (tag: string, pid: number, startTime = pid * 10) => ({ tag, pid, startTime, startedAt: pid * 1000 });
const rec = (pid: number, startTime = pid * 10): RuntimeRecord => ({ pid, startTime, startedAt: 1, stopsecs: 3 });
const plan = (records: [string, RuntimeRecord][], recovered: Partial<Recovered>, owners: Record<string, Owner> = {}) =>
  planAdoption({ records: new Map(records), recovered: { live: [], exited: [], ...recovered }, owner: (id) => (id in owners ? owners[id]! : proc) });

test('a record whose process the spawner still has is adopted as recorded', () => {
  const p = plan([['a', rec(100)]], { live: [live('a', 100)] });
  assert.deepEqual([...p.adopt], [['a', rec(100)]]);
  assert.deepEqual([p.clear, p.kill], [[], []]);
});

test('spawned but never recorded (daemon killed in between): adopted from the spawner list', () => {
  const p = plan([], { live: [live('a', 100)] });
  assert.deepEqual(p.adopt.get('a'), { pid: 100, startTime: 1000, startedAt: 100_000, stopsecs: 7 });
});

test('a stale record (program restarted, new record not written) yields to the live process', () => {
  const p = plan([['a', rec(90)]], { live: [live('a', 100)], exited: [{ ...live('a', 90), exit: { code: 1, signal: null } }] });
  assert.equal(p.adopt.get('a')?.pid, 100);
  assert.deepEqual(p.kill, []);
});

test('two live processes for one program: the recorded one stays, the other is killed', () => {
  const p = plan([['a', rec(100)]], { live: [live('a', 100), live('a', 120)] });
  assert.equal(p.adopt.get('a')?.pid, 100);
  assert.deepEqual(p.kill.map((k) => k.pid), [120]);
  const unrecorded = plan([], { live: [live('a', 100), live('a', 120)] });
  assert.equal(unrecorded.adopt.get('a')?.pid, 120, 'without a record the newest is kept');
  assert.deepEqual(unrecorded.kill.map((k) => k.pid), [100]);
});

test('a process that ended while no daemon ran is adopted, so its real exit is judged', () => {
  const gone = { ...live('a', 100), exit: { code: 0, signal: null } };
  assert.deepEqual(plan([['a', rec(100)]], { exited: [gone] }).adopt.get('a'), rec(100));
  assert.equal(plan([], { exited: [gone] }).adopt.get('a')?.pid, 100);
});

test('a deleted program: its record cleared, its live processes killed; cron runs and untagged ones left', () => {
  const p = plan([['gone', rec(100)], ['job', rec(200)]], { live: [live('gone', 100), live('job', 200), live('', 300)] }, { gone: null, job: { kind: 'cron' } });
  assert.deepEqual(p.clear.sort(), ['gone', 'job']);
  assert.deepEqual(p.kill.map((k) => k.pid), [100]);
  assert.equal(p.adopt.size, 0);
});

test('a record without anything from the spawner (child_process era) is still offered to adopt', () => {
  assert.deepEqual(plan([['a', rec(100)]], {}).adopt.get('a'), rec(100));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planAdoption, type Candidate, type Owner } from '../../../../controllers/process/adopt.js';
import type { RuntimeRecord } from '../../../../state/runtime-store.js';

const live = (programId: string, pid: number, over: Partial<Candidate> = {}): Candidate => ({ programId, pid, startTime: pid * 10, role: 'program', ...over });
const rec = (pid: number): RuntimeRecord => ({ pid, startTime: pid * 10, startedAt: 1, stopsecs: 3 });
const owns = (map: Record<string, Owner> = {}) => (id: string) => (id in map ? map[id]! : 'process');

test('a record whose process lives is adopted as recorded', () => {
  const p = planAdoption(new Map([['a', rec(100)]]), [live('a', 100)], owns());
  assert.deepEqual(p.adopt.get('a'), { pid: 100, startTime: 1000, startedAt: 1, stopsecs: 3, stopping: null });
  assert.deepEqual(p.strays, []);
});

test('spawned but never recorded (daemon killed in between): adopted, with the OS start time', () => {
  const p = planAdoption(new Map(), [live('a', 100, { startedAtMs: 5 })], owns());
  assert.deepEqual(p.adopt.get('a'), { pid: 100, startTime: 1000, startedAt: 5, stopsecs: null, stopping: null });
});

test('a stale record (its process gone) yields to the live process', () => {
  const p = planAdoption(new Map([['a', rec(90)]]), [live('a', 100), live('a', 90, { exited: true })], owns());
  assert.equal(p.adopt.get('a')?.pid, 100);
  assert.deepEqual(p.strays, []);
});

test('two live processes for one program: the recorded one stays, else the oldest; the other is ended', () => {
  const recorded = planAdoption(new Map([['a', rec(120)]]), [live('a', 100), live('a', 120)], owns());
  assert.equal(recorded.adopt.get('a')?.pid, 120);
  assert.deepEqual(recorded.strays.map((s) => s.pid), [100]);
  const unrecorded = planAdoption(new Map(), [live('a', 100), live('a', 120)], owns());
  assert.equal(unrecorded.adopt.get('a')?.pid, 100);
  assert.deepEqual(unrecorded.strays.map((s) => s.pid), [120]);
});

test('a process that ended while no daemon ran is adopted, so its real exit is judged', () => {
  const p = planAdoption(new Map(), [live('a', 100, { exited: true }), live('a', 90, { exited: true })], owns());
  assert.equal(p.adopt.get('a')?.pid, 100, 'the newest kept exit');
  assert.deepEqual(p.strays, []);
});

test('a deleted program\'s process is ended; cron runs are left to the cron controller; hooks and probes are ended', () => {
  const p = planAdoption(new Map(), [live('gone', 100), live('job', 200, { role: 'cron' }), live('web', 300, { role: 'hook' })], owns({ gone: null, job: 'cron' }));
  assert.deepEqual(p.strays.map((s) => s.pid).sort(), [100, 300]);
  assert.equal(p.adopt.size, 0);
});

test('a quarantined program\'s process is neither adopted nor ended: the operator decides', () => {
  const p = planAdoption(new Map([['q', rec(100)]]), [live('q', 100), live('q', 110, { exited: true })], owns({ q: 'quarantined' }));
  assert.deepEqual(p.untouched.map((s) => s.pid), [100]);
  assert.deepEqual(p.strays, []);
  assert.equal(p.adopt.size, 0);
});

test("a stop the previous daemon began comes with the adoption, only for the record's own process", () => {
  const stopping = { reason: 'restart' as const, deadline: 99, killed: false };
  const p = planAdoption(new Map([['a', { ...rec(100), stopping }]]), [live('a', 100)], owns());
  assert.deepEqual(p.adopt.get('a')?.stopping, stopping);
  const other = planAdoption(new Map([['a', { ...rec(100), stopping }]]), [live('a', 200)], owns());
  assert.equal(other.adopt.get('a')?.stopping, null, 'another process of the program was never signalled');
});

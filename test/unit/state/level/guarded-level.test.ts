import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { GuardedLevel, type WriteHealth } from '../../../../state/level/guarded-level.js';
import { StoreWriteError } from '../../../../state/level/store-errors.js';
import { enospc } from '../../../helpers/faulty-level.js';

const tick = () => new Promise((r) => setImmediate(r));

function setup() {
  const clock = new FakeClock(1_000);
  const s = { full: false, room: false, reopens: 0, reopenFails: false, written: 0, changes: [] as WriteHealth[] };
  const guard = new GuardedLevel(
    {
      batch: async () => {
        if (s.full) throw enospc();
        s.written++;
      },
    },
    {
      what: 'the state store',
      dir: '/data',
      clock,
      retryMs: 1000,
      hasRoom: async () => s.room,
      reopen: async () => {
        s.reopens++;
        if (s.reopenFails) throw Object.assign(new Error('IO error: /data/state.db/000009.ldb: No space left on device'), { code: 'LEVEL_IO_ERROR' });
      },
      onChange: (h) => s.changes.push(h),
    },
  );
  return { clock, s, guard };
}

void test('a failed write refuses every later write with the reason, until room returns and the store is reopened', async () => {
  const { clock, s, guard } = setup();
  await guard.batch([]);
  s.full = true;
  const first = await guard.batch([]).catch((e: unknown) => e);
  assert.ok(first instanceof StoreWriteError);
  assert.equal(first.code, 'SVC_NO_SPACE');
  assert.deepEqual(guard.health(), { writable: false, problem: first.message, since: 1_000 });
  s.full = false; // the disk has room for a write, but the log is torn: still refused
  await assert.rejects(guard.batch([]), (e: Error) => e instanceof StoreWriteError);
  assert.equal(s.written, 1);
  assert.equal(s.reopens, 0, 'no reopen without room for it');

  s.room = true;
  s.reopenFails = true; // room by statfs, but the reopen itself fails: still refusing, retried later
  clock.advance(1000);
  await tick();
  assert.equal(s.reopens, 1);
  assert.equal(guard.health().writable, false);

  s.reopenFails = false;
  const writable = guard.whenWritable();
  clock.advance(1000);
  await tick();
  assert.equal(await writable, true);
  assert.equal(s.reopens, 2);
  await guard.batch([]);
  assert.equal(s.written, 2);
  assert.deepEqual(s.changes.map((h) => h.writable), [false, false, true]);
});

void test('a write while refusing tries to recover first, and succeeds when it can', async () => {
  const { s, guard } = setup();
  s.full = true;
  await assert.rejects(guard.batch([]));
  s.full = false;
  s.room = true;
  await guard.batch([]);
  assert.equal(s.reopens, 1);
  assert.equal(s.written, 1);
});

void test('closing wakes writers waiting for room, with false', async () => {
  const { s, guard } = setup();
  s.full = true;
  await assert.rejects(guard.batch([]));
  const waiting = guard.whenWritable();
  await guard.close();
  assert.equal(await waiting, false);
});

void test('an error that is not the storage (a programming error) passes through and refuses nothing', async () => {
  const clock = new FakeClock();
  const guard = new GuardedLevel(
    { batch: () => Promise.reject(Object.assign(new Error('Database is not open'), { code: 'LEVEL_DATABASE_NOT_OPEN' })) },
    { what: 'x', dir: '/d', clock, hasRoom: async () => true, reopen: async () => undefined },
  );
  await assert.rejects(guard.batch([]), /Database is not open/);
  assert.equal(guard.health().writable, true);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { ProgramStore } from '../../../state/store.js';
import { putRaw } from '../../helpers/level-damage.js';

const BAD_HEALTH = '11111111-1111-4111-8111-111111111111';
const NO_INTENT = '22222222-2222-4222-8222-222222222222';
const intent = { run: 'running', start_seq: 0, restart_seq: 0, force: false };
const base = { revision: 1, created_at: 1, updated_at: 1 };

async function keysOf(location: string, sublevel: string): Promise<string[]> {
  const db = new ClassicLevel<string, string>(location);
  await db.open();
  const keys = await db.sublevel(sublevel).keys().all();
  await db.close();
  return keys;
}

void test('findings 12 and 13: invalid stored records are quarantined by name, moved aside, and never crash the open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-quarantine-'));
  const location = join(dir, 'state.db');
  const logged: unknown[] = [];
  const log = { info: () => undefined, warn: () => undefined, error: (msg: string, fields?: Record<string, unknown>) => logged.push({ msg, ...fields }) };
  try {
    const first = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    const [good] = await first.create([{ name: 'good', command: 'x' }]);
    await first.close();
    await putRaw(location, 'programs', [
      [BAD_HEALTH, JSON.stringify({ id: BAD_HEALTH, config: { name: 'grpc', command: 'x', health_check: { type: 'grpc', port: 1 } }, intent, ...base })],
      [NO_INTENT, JSON.stringify({ id: NO_INTENT, config: { name: 'lost-intent', command: 'x' }, ...base })],
    ]);
    await putRaw(location, 'names', [['grpc', BAD_HEALTH], ['lost-intent', NO_INTENT]]);

    const store = await ProgramStore.open(dir, { logDir: '/srv/logs', log });
    assert.deepEqual(store.list().map((r) => r.id), [good.id]);
    const q = store.report().quarantined;
    assert.deepEqual(q.map((r) => [r.id, r.name, r.moved]), [[BAD_HEALTH, 'grpc', true], [NO_INTENT, 'lost-intent', true]].sort());
    assert.match(q.find((r) => r.id === BAD_HEALTH)!.reason, /^program 'grpc': health_check\.type: must be one of/);
    assert.equal(JSON.parse(q.find((r) => r.id === NO_INTENT)!.raw).config.name, 'lost-intent');
    assert.deepEqual(logged.map((l) => (l as { name: string }).name).sort(), ['grpc', 'lost-intent']);
    assert.equal(store.isQuarantined(BAD_HEALTH), true);
    // The name of a quarantined program is free again.
    await store.create([{ name: 'grpc', command: 'y' }]);
    await store.close();

    assert.deepEqual((await keysOf(location, 'programs')).includes(BAD_HEALTH), false, 'moved out of the programs keyspace');
    assert.deepEqual((await keysOf(location, 'quarantine')).sort(), [BAD_HEALTH, NO_INTENT].sort());

    const again = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    assert.deepEqual(again.list().map((r) => r.config.name).sort(), ['good', 'grpc']);
    assert.equal(again.report().quarantined.length, 2, 'still listed after a restart');
    const discarded = await again.discardQuarantined(NO_INTENT);
    assert.equal(discarded.name, 'lost-intent');
    await assert.rejects(again.discardQuarantined(NO_INTENT), /no quarantined record/);
    await again.close();
    const last = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    assert.deepEqual(last.report().quarantined.map((r) => r.id), [BAD_HEALTH]);
    await last.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a quarantined record that loads now is restored, stopped, under its own id; one that still does not is refused with the reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-quarantine-restore-'));
  const location = join(dir, 'state.db');
  const WORKER = '33333333-3333-4333-8333-333333333333';
  try {
    const first = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    await first.close();
    await putRaw(location, 'programs', [
      // Quarantined at the next open: it depends on a program the store does not have.
      [WORKER, JSON.stringify({ id: WORKER, config: { name: 'worker', command: 'x', depends_on: ['db'] }, intent, ...base })],
      [BAD_HEALTH, JSON.stringify({ id: BAD_HEALTH, config: { name: 'grpc', command: 'x', health_check: { type: 'grpc', port: 1 } }, intent, ...base })],
    ]);
    const store = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    assert.deepEqual(store.report().quarantined.map((q) => q.id).sort(), [BAD_HEALTH, WORKER].sort());
    await assert.rejects(store.restoreQuarantined(WORKER), /depends_on: unknown service\(s\): db/);
    await assert.rejects(store.restoreQuarantined(BAD_HEALTH), { code: 'SVC_CONFLICT', message: /^quarantined record 1{8}-.* \(grpc\) still cannot be loaded: program 'grpc': health_check\.type: must be one of/ });
    await assert.rejects(store.restoreQuarantined('nope'), { code: 'SVC_NOT_FOUND' });
    await store.create([{ name: 'db', command: 'db' }]);
    const restored = await store.restoreQuarantined(WORKER);
    assert.equal(restored.id, WORKER);
    assert.equal(restored.intent.run, 'stopped', 'nothing starts before its owner has looked at it');
    assert.equal(restored.revision, 2);
    assert.deepEqual(store.report().quarantined.map((q) => q.id), [BAD_HEALTH]);
    await store.close();
    const again = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    assert.deepEqual(again.list().map((r) => r.config.name).sort(), ['db', 'worker']);
    assert.deepEqual(again.report().quarantined.map((q) => q.id), [BAD_HEALTH]);
    await again.close();
    // A restore cut short between its two writes: the program is back and still has a quarantined copy.
    await putRaw(location, 'quarantine', [[WORKER, JSON.stringify({ name: 'worker', reason: 'r', raw: '{}', at: 1 })]]);
    const tidied = await ProgramStore.open(dir, { logDir: '/srv/logs' });
    assert.deepEqual(tidied.report().quarantined.map((q) => q.id), [BAD_HEALTH], 'the copy of a program that loads is dropped');
    assert.ok(tidied.get(WORKER));
    await tidied.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

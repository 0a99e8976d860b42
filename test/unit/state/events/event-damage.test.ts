import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { eventQuery } from '../../../../state/events/query-types.js';
import type { EventRecord } from '../../../../state/events/types.js';
import { EventWriter } from '../../../../state/events/writer.js';
import { tempEventLog, ManualScheduler } from '../../../helpers/event-log.js';
import { flipBytes, putRaw, walFiles } from '../../../helpers/level-damage.js';

const A = '11111111-1111-4111-8111-111111111111';

void test('finding 14: one malformed record is skipped by queries, counted and reported once, never a failed query', async () => {
  const errors: { msg: string; fields: Record<string, unknown> }[] = [];
  const env = await tempEventLog({ onError: (msg, fields) => errors.push({ msg, fields }) });
  try {
    for (let i = 0; i < 5; i++) env.current.emit({ event: 'process_exit', program_id: A, program_name: 'web', exit_code: i, msg: `exit ${i}` });
    await env.current.close();
    const [first] = await (async () => {
      const log = await env.open();
      const rows = await log.query(eventQuery({ limit: 1 }));
      await log.close();
      return rows;
    })();
    // A damaged value between the good ones, and one that is JSON but not an event record.
    await putRaw(env.file, 'e', [
      [first.id.replace(/-(\d+)$/, '-$1a'), '{"id": broken'],
      ['001700000000000-999999999999', JSON.stringify({ id: '001700000000000-999999999999', event: 'process_exit', msg: 7 })],
    ]);
    const log = await env.reopen();
    for (const sort_by of ['time', 'msg'] as const) {
      const rows = await log.query(eventQuery({ limit: 1000, sort_by }));
      assert.equal(rows.length, 5);
    }
    assert.equal((await log.query(eventQuery({ limit: 1000, order: 'desc' }))).length, 5);
    assert.equal(log.report().malformed_records, 2);
    assert.equal(errors.filter((e) => /malformed/.test(e.msg)).length, 2, 'each reported once, however many queries read it');
  } finally {
    await env.cleanup();
  }
});

void test('finding 14: a damaged event log opens (history is not desired state) but says what it lost, with a copy kept', async () => {
  const errors: { msg: string; fields: Record<string, unknown> }[] = [];
  const env = await tempEventLog({ onError: (msg, fields) => errors.push({ msg, fields }) });
  try {
    for (let i = 0; i < 60; i++) {
      env.current.emit({ event: 'process_exit', program_id: A, program_name: 'web', exit_code: 0, msg: `exit number ${i}` });
      await env.current.flush(); // one log record per event
    }
    await env.current.close();
    const [log] = walFiles(env.file);
    flipBytes(log, 3000);
    const reopened = await env.open();
    const report = reopened.report();
    assert.match(report.recovered_at_open ?? '', /damaged write-ahead log: \d+\.log at byte \d+: checksum mismatch/);
    assert.ok(errors.some((e) => e.msg === 'the event history was damaged; what could be read was kept'));
    assert.ok(readdirSync(dirname(env.file)).some((n) => n.startsWith('events.db.damaged-')));
    assert.ok((await reopened.query(eventQuery({ limit: 1000 }))).length < 60);
    await reopened.close();
  } finally {
    await env.cleanup();
  }
});

void test('an event history without its CURRENT file is refused, naming it, and keeps every event (LevelDB would start it empty)', async () => {
  const env = await tempEventLog();
  try {
    for (let i = 0; i < 5; i++) env.current.emit({ event: 'process_exit', program_id: A, program_name: 'web', exit_code: i, msg: `exit ${i}` });
    await env.reopen(); // the history is now in a table file as well as the log
    await env.current.close();
    const current = readFileSync(join(env.file, 'CURRENT'), 'utf8');
    rmSync(join(env.file, 'CURRENT'));
    const before = readdirSync(env.file).sort();
    await assert.rejects(env.open(), /the event history at .*events\.db has no CURRENT file but holds data/);
    assert.deepEqual(readdirSync(env.file).sort(), before, 'nothing written or deleted');
    writeFileSync(join(env.file, 'CURRENT'), current);
    const log = await env.reopen();
    assert.equal((await log.query(eventQuery({ limit: 1000 }))).length, 5);
  } finally {
    await env.cleanup();
  }
});

void test('a write refused for now (a full disk) keeps the batch queued and writes it, in order, once the store takes writes', async () => {
  const clock = new FakeClock(1_700_000_000_000);
  const scheduler = new ManualScheduler();
  const written: EventRecord[][] = [];
  const refused = new Error('no space left on the data disk');
  let full = true;
  let release!: (writable: boolean) => void;
  const writer = new EventWriter({
    clock,
    firstSeq: 0,
    schedule: scheduler.schedule,
    write: async (records) => {
      if (full) throw refused;
      written.push(records);
    },
    whenWritable: (err) => (err === refused ? new Promise<boolean>((r) => (release = r)) : null),
  });
  writer.emit({ event: 'process_exit', msg: 'one' });
  writer.emit({ event: 'process_exit', msg: 'two' });
  scheduler.run();
  await writer.flush(); // returns while the writer waits for room
  assert.deepEqual(writer.stats(), { queued: 2, written: 0, dropped: 0, failed: 0 });
  writer.emit({ event: 'process_exit', msg: 'three' });
  full = false;
  release(true);
  await new Promise((r) => setImmediate(r));
  await writer.flush();
  assert.deepEqual(written.flat().map((r) => r.msg), ['one', 'two', 'three']);
  assert.deepEqual(writer.stats(), { queued: 0, written: 3, dropped: 0, failed: 0 });
});

void test('an event history folder holding another LevelDB (the state store put in its place) is refused, and nothing is written into it', async () => {
  const env = await tempEventLog();
  try {
    await env.current.close();
    rmSync(env.file, { recursive: true });
    const foreign = new ClassicLevel<string, string>(env.file);
    await foreign.sublevel<string, string>('programs', {}).put(A, '{"id":"x"}');
    await foreign.close();
    await assert.rejects(env.open(), /^StoreOpenError: the event history at .*events\.db holds no event but other keys \(the first: "!programs!1{8}-/);
    const after = new ClassicLevel<string, string>(env.file);
    assert.deepEqual(await after.keys().all(), [`!programs!${A}`]);
    await after.close();
  } finally {
    await env.cleanup();
  }
});

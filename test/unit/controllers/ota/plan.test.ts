import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOta } from '../../../../controllers/ota/plan.js';
import { desiredOf, type OtaInput } from '../../../../controllers/ota/plan-types.js';
import { freshRecord, type OtaRecord } from '../../../../controllers/ota/record.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const NOW = 1_700_000_000_000;
const DEST = '/opt/app';

function input(over: Partial<OtaInput> = {}, record: Partial<OtaRecord> | null = {}): OtaInput {
  return {
    id: 'p1',
    name: 'app',
    desired: desiredOf({ source: 'https://x.test/app', checksum: B, destination: DEST }),
    program: { cron: false, startsecsMs: 1000, stopsecsMs: 10_000, healthCheck: false },
    observed: { status: 'Running', pid: 100, started_at: NOW - 60_000, last_exit: null, health_last: null },
    runWanted: true,
    record: record === null ? null : { ...freshRecord(DEST, { checksum: A, digest: A }, 0), ...record },
    running: null,
    outcome: null,
    rollbackSeq: 0,
    resumed: false,
    now: NOW,
    maxAttempts: 5,
    ...over,
  };
}

const steps = (p: ReturnType<typeof planOta>) => p.effects.filter((e) => e.kind === 'step').map((e) => (e as { step: string }).step);
const kinds = (p: ReturnType<typeof planOta>) => p.effects.map((e) => e.kind);

test('no record: the destination is inspected first (nothing persisted)', () => {
  const p = planOta(input({}, null));
  assert.deepEqual(steps(p), ['inspect']);
  assert.equal(p.record, null);
});

test('idle, desired differs from installed: DOWNLOADING persisted with its step and ota_started', () => {
  const p = planOta(input());
  assert.equal(p.record?.phase, 'downloading');
  assert.equal(p.record?.target, B);
  assert.deepEqual(kinds(p), ['event', 'step']);
  assert.deepEqual(steps(p), ['download']);
});

test('a persisted step with nothing in flight (after a restart) is taken again', () => {
  for (const phase of ['downloading', 'verifying', 'extracting', 'backing_up', 'swapping', 'rolling_back'] as const) {
    const p = planOta(input({}, { phase, target: B, backup: { checksum: A, digest: A } }));
    assert.equal(p.record?.phase, phase);
    assert.equal(steps(p).length, 1, phase);
  }
});

test('a step in flight is aborted when its checksum is no longer wanted, waited for otherwise', () => {
  const downloading = { phase: 'downloading' as const, target: C };
  assert.deepEqual(kinds(planOta(input({ running: 'download' }, downloading))), ['cancel']);
  assert.deepEqual(kinds(planOta(input({ running: 'download' }, { ...downloading, target: B }))), []);
  assert.deepEqual(kinds(planOta(input({ running: 'backup' }, { phase: 'backing_up', target: C }))), [], 'a backup finishes');
  assert.deepEqual(kinds(planOta(input({ running: 'download', desired: null }, downloading))), ['cancel']);
});

test('a stale or cancelled outcome changes nothing', () => {
  const r = { phase: 'verifying' as const, target: B };
  const stale = planOta(input({ outcome: { ok: true, step: 'download', target: B, bytes: 1 } }, r));
  assert.equal(stale.record?.phase, 'verifying');
  const other = planOta(input({ outcome: { ok: true, step: 'verify', target: C, digest: C } }, r));
  assert.equal(other.record?.phase, 'verifying');
  const aborted = planOta(input({ outcome: { ok: false, step: 'verify', target: B, error: 'cancelled', permanent: false, aborted: true } }, r));
  assert.equal(aborted.record?.phase, 'verifying');
});

test('swapping always finishes, even when the desired checksum moved on', () => {
  const p = planOta(input({ desired: desiredOf({ source: 'https://x.test/app', checksum: C, destination: DEST }) }, { phase: 'swapping', target: B }));
  assert.equal(p.record?.phase, 'swapping');
  assert.deepEqual(steps(p), ['swap']);
});

test('a rollback request waits for the swap, then rolls back from validation', () => {
  const during = planOta(input({ rollbackSeq: 1 }, { phase: 'swapping', target: B }));
  assert.equal(during.record?.rollback_seq, 0);
  const after = planOta(
    input({ rollbackSeq: 1 }, { phase: 'validating', target: B, installed: { checksum: B, digest: B }, backup: { checksum: A, digest: A }, validating: { pid: 100, since: NOW }, deadline: NOW + 1 }),
  );
  assert.equal(after.record?.phase, 'rolling_back');
  assert.equal(after.record?.rollback_seq, 1);
  assert.equal(after.record?.rejected, B);
  assert.deepEqual(steps(after), ['rollback']);
});

test('restarting (immediate) with no new process by the deadline rolls back', () => {
  const r = { phase: 'restarting' as const, target: B, installed: { checksum: B, digest: B }, backup: { checksum: A, digest: A }, swapped_at: NOW - 20_000, swap_pid: 100, restart: { pid: 100, reason: 'ota' }, deadline: NOW };
  const p = planOta(input({}, r));
  assert.equal(p.record?.phase, 'rolling_back');
  assert.match(p.record.rollback_reason!, /no process started from the new binary/);
  const before = planOta(input({ now: NOW - 1 }, r));
  assert.equal(before.record?.phase, 'restarting');
  assert.equal(before.requeueAt, NOW);
});

test('validating: a requested stop is not a failure; the next process is validated', () => {
  const r = { phase: 'validating' as const, target: B, installed: { checksum: B, digest: B }, backup: { checksum: A, digest: A }, swapped_at: NOW - 5000, validating: { pid: 100, since: NOW - 5000 }, deadline: NOW + 50_000 };
  const stopped = planOta(input({ runWanted: false, observed: { status: 'Stopped', pid: null, started_at: null, last_exit: { at: NOW - 1, reason: 'stop', msg: 'stopped on request' }, health_last: null } }, r));
  assert.equal(stopped.record?.phase, 'restarting');
  assert.equal(stopped.record?.deadline, null);
  const crashed = planOta(input({ observed: { status: 'Backoff', pid: null, started_at: null, last_exit: { at: NOW - 1, reason: 'crash', msg: 'crashed: exit code 2' }, health_last: null } }, r));
  assert.equal(crashed.record?.phase, 'rolling_back');
});

test('the artifact removed: record forgotten, temporary files cleaned up, the update closed by ota_cancelled', () => {
  const p = planOta(input({ desired: null }, { phase: 'retry_wait', target: B }));
  assert.equal(p.record, null);
  assert.deepEqual(
    p.effects.map((e) => (e.kind === 'event' ? `${e.event.event}: ${e.event.msg}` : e)),
    [`ota_cancelled: abandoned the update to ${B.slice(0, 12)} before its swap: the artifact was removed`, { kind: 'cleanup', destination: DEST }],
  );
  const idle = planOta(input({ desired: null }, { phase: 'idle', target: null }));
  assert.deepEqual(idle.effects, [{ kind: 'cleanup', destination: DEST }], 'nothing under way: nothing to close');
});

test('a new destination during a download abandons the update with that reason', () => {
  const p = planOta(input({ desired: desiredOf({ source: 'https://x.test/app', checksum: B, destination: '/opt/other/app' }) }, { phase: 'downloading', target: B }));
  const events = p.effects.flatMap((e) => (e.kind === 'event' ? [e.event.msg] : []));
  assert.deepEqual(events, [`abandoned the update to ${B.slice(0, 12)} before its swap: the destination changed to /opt/other/app`]);
});

test('a rejected checksum stays idle until the desired checksum changes', () => {
  const same = planOta(input({}, { rejected: B }));
  assert.equal(same.record?.phase, 'idle');
  assert.deepEqual(same.effects, []);
  const other = planOta(input({ desired: desiredOf({ source: 'https://x.test/app', checksum: C, destination: DEST }) }, { rejected: B }));
  assert.equal(other.record?.phase, 'downloading');
  assert.equal(other.record?.rejected, null);
});

test('a changed destination is inspected afresh', () => {
  const p = planOta(input({ desired: desiredOf({ source: 'https://x.test/app', checksum: B, destination: '/opt/other' }) }));
  assert.deepEqual(steps(p), ['inspect']);
  const seen = planOta(
    input({ desired: desiredOf({ source: 'https://x.test/app', checksum: B, destination: '/opt/other' }), outcome: { ok: true, step: 'inspect', destination: '/opt/other', digest: B } }),
  );
  assert.equal(seen.record?.destination, '/opt/other');
  assert.equal(seen.record?.phase, 'idle');
});

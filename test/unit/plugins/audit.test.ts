import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog, verifyAuditFiles } from '../../../plugins/security/audit/audit-log.js';
import { formatRecord, GENESIS, lineDigest, verifyAudit, type AuditEntry } from '../../../plugins/security/audit/chain.js';
import { filterAudit, parseAuditQuery } from '../../../plugins/security/audit/query.js';

const entry = (i: number, o: Partial<AuditEntry> = {}): AuditEntry => ({ ts: 1_000_000 + i * 1000, actor: { kind: 'token', id: `tok_00000000000${i % 3}`, name: 'n', role: i % 2 ? 'admin' : 'operator' }, method: 'POST', path: `/api/v1/programs/${i}/restart`, status: 200, ...o });

/** A chain of n records as text, and its head. */
function chain(n: number): { text: string; head: { seq: number; digest: string } } {
  let prev = GENESIS;
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    const line = formatRecord(entry(i), i, prev);
    lines.push(line);
    prev = lineDigest(line);
  }
  return { text: lines.map((l) => `${l}\n`).join(''), head: { seq: n, digest: prev } };
}

const problem = (text: string, head: { seq: number; digest: string } | null) => {
  const r = verifyAudit(text, head);
  assert.equal(r.ok, false, 'expected the log to fail verification');
  return r.ok ? '' : r.problem;
};

test('an intact chain verifies; an empty log too', () => {
  const { text, head } = chain(5);
  assert.deepEqual(verifyAudit(text, head), { ok: true, records: 5, notes: [] });
  assert.deepEqual(verifyAudit('', null), { ok: true, records: 0, notes: [] });
});

test('changing any one byte of any record is detected', () => {
  const { text, head } = chain(6);
  for (let pos = 0; pos < text.length; pos += 7) {
    if (text[pos] === '\n') continue;
    const edited = `${text.slice(0, pos)}${text[pos] === 'x' ? 'y' : 'x'}${text.slice(pos + 1)}`;
    assert.equal(verifyAudit(edited, head).ok, false, `byte ${pos}`);
  }
});

test('removed, inserted, reordered and cut records are detected', () => {
  const { text, head } = chain(5);
  const lines = text.split('\n').filter(Boolean);
  const join_ = (ls: string[]) => ls.map((l) => `${l}\n`).join('');
  assert.match(problem(join_([...lines.slice(0, 2), ...lines.slice(3)]), head), /line 3 holds record 4, expected 3/);
  assert.match(problem(join_(lines.slice(1)), head), /records were removed from the start/);
  assert.match(problem(join_([lines[0], lines[2], lines[1], lines[3], lines[4]]), head), /line 2 holds record 3/);
  assert.match(problem(join_(lines.slice(0, 3)), head), /truncated: the head says record 5 was written, the log ends at record 3/);
  assert.match(problem(text.slice(0, -10), head), /line 5 is cut short/);
  assert.match(problem(join_([...lines, lines[4].replace('"seq":5', '"seq":6')]), head), /prev digest does not match line 5/);
});

test('an unreadable head file is reported as such', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-audit-head-'));
  try {
    writeFileSync(join(dir, 'audit.log'), chain(3).text);
    writeFileSync(join(dir, 'audit.head'), 'garbage\n');
    const r = await verifyAuditFiles(dir);
    assert.deepEqual(r, { ok: false, records: 3, problem: 'the head file is unreadable (not {"seq", "digest"}): it was edited or damaged' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a record appended without the head is tolerated once (a crash between the writes), not twice', () => {
  const { text } = chain(5);
  const older = chain(4).head;
  const r = verifyAudit(text, older);
  assert.equal(r.ok, true);
  assert.match(r.ok ? r.notes.join() : '', /record 5 is past the head/);
  assert.match(problem(text, chain(3).head), /2 records after the head's record 3/);
});

test('AuditLog appends a chain that verifies, continues it after a restart, and reports edits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-audit-'));
  try {
    let now = 5_000;
    const clock = () => now++;
    const first = await AuditLog.open(dir, clock);
    assert.equal(first.warning, null);
    for (let i = 1; i <= 3; i++) await first.log.append(entry(i));
    const again = await AuditLog.open(dir, clock); // a restart: the chain continues
    assert.equal(again.warning, null);
    await again.log.append(entry(4));
    assert.deepEqual(await again.log.verify(), { ok: true, records: 4, notes: [] });
    assert.equal((await again.log.records()).map((r) => r.seq).join(), '1,2,3,4');

    const file = join(dir, 'audit.log');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"status":200', '"status":201'));
    const v = await verifyAuditFiles(dir);
    assert.equal(v.ok, false);
    assert.match(v.ok ? '' : v.problem, /line 2 \(record 2\): its prev digest does not match line 1/);

    // Records cut off the end while svcd was down: recorded at the next start, and verify fails.
    writeFileSync(file, text.split('\n').slice(0, 2).join('\n') + '\n');
    const reopened = await AuditLog.open(dir, clock);
    assert.match(reopened.warning ?? '', /does not end where .*audit\.head says \(head: record 4, log: record 2\)/);
    const records = await reopened.log.records();
    assert.equal(records.at(-1)?.path, 'audit/head-mismatch');
    assert.equal(records.at(-1)?.seq, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('audit queries: filters combine, order and paging, bad parameters name themselves', () => {
  const records = [1, 2, 3, 4, 5, 6].map((i) => ({ ...entry(i), seq: i, prev: '' }));
  assert.deepEqual(filterAudit(records, parseAuditQuery({ role: 'admin' })).map((r) => r.seq), [1, 3, 5]);
  assert.deepEqual(filterAudit(records, parseAuditQuery({ actor: 'tok_000000000001', order: 'desc' })).map((r) => r.seq), [4, 1]);
  assert.deepEqual(filterAudit(records, parseAuditQuery({ from: '1002', to: '1004', limit: '2', offset: '1' })).map((r) => r.seq), [3, 4]);
  assert.deepEqual(filterAudit(records, parseAuditQuery({ path: '/api/v1/programs/6', method: 'post' })).map((r) => r.seq), [6]);
  assert.throws(() => parseAuditQuery({ limit: '5000' }), /limit: must be a whole number from 1 to 1000/);
  assert.throws(() => parseAuditQuery({ order: 'up' }), /order: must be asc or desc/);
});

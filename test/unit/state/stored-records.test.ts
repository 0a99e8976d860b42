import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProgramRecord } from '../../../state/program.js';
import { sortStoredRecords } from '../../../state/stored-records.js';

const LOG_DIR = '/srv/svc/logs';
let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function record(config: Record<string, unknown>, more: Partial<ProgramRecord> = {}): ProgramRecord {
  return {
    id: id(),
    config: { command: 'node', ...config } as ProgramRecord['config'],
    intent: { run: 'running', start_seq: 0, restart_seq: 0, force: false },
    revision: 1,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...more,
  };
}

const entries = (...records: unknown[]): [string, string][] => records.map((r) => [(r as ProgramRecord).id, JSON.stringify(r)]);
const sort = (list: [string, string][], index = new Map<string, string>()) => sortStoredRecords(list, index, LOG_DIR);
const reasons = (r: ReturnType<typeof sort>) => Object.fromEntries(r.rejected.map((q) => [q.name ?? q.id, q.reason]));

void test('valid records load unchanged', () => {
  const a = record({ name: 'a', health_check: { type: 'tcp', port: 80 } });
  const b = record({ name: 'b', depends_on: ['a'], stdout_logfile: `${LOG_DIR}/b.out` });
  const out = sort(entries(a, b));
  assert.deepEqual(out.records, [a, b]);
  assert.deepEqual(out.rejected, []);
});

void test('a health check an older svcd stored with a host or URL no probe can reach still loads (its program runs; the 400 is for new writes)', () => {
  const tcp = record({ name: 'tcp', health_check: { type: 'tcp', host: '127.0.0.1:5432', port: 5432 } });
  const http = record({ name: 'http', health_check: { type: 'http', url: 'http://127.0.0.1:99999/' } });
  const out = sort(entries(tcp, http));
  assert.deepEqual(out.rejected, []);
  assert.deepEqual(out.records, [tcp, http]);
});

void test('finding 12: an unknown health_check.type is quarantined by name, with the API message', () => {
  const out = sort(entries(record({ name: 'ok' }), record({ name: 'bad', health_check: { type: 'grpc', port: 1 } })));
  assert.deepEqual(out.records.map((r) => r.config.name), ['ok']);
  assert.equal(reasons(out).bad, "program 'bad': health_check.type: must be one of 'http', 'tcp', 'exec'");
});

void test('finding 13: every invalid stored record is caught, each with the field that is wrong', () => {
  const noIntent = record({ name: 'no-intent' }) as Partial<ProgramRecord>;
  delete noIntent.intent;
  const noCommand = record({ name: 'no-command' });
  delete (noCommand.config as Partial<ProgramRecord['config']>).command;
  const out = sort(
    entries(
      record({ name: 'negative', startsecs: -5 }),
      record({ name: 'outside', stdout_logfile: '/etc/cron.d/evil' }),
      record({ name: 'unknown-dep', depends_on: ['ghost'] }),
      noIntent,
      noCommand,
      record({ name: 'bad-run' }, { intent: { run: 'maybe' as 'running', start_seq: 0, restart_seq: 0, force: false } }),
    ),
  );
  assert.deepEqual(out.records, []);
  const r = reasons(out);
  assert.match(r.negative, /^program 'negative': startsecs: must be >= 0/);
  assert.match(r.outside, /^program 'outside': stdout_logfile: /);
  assert.equal(r['unknown-dep'], "program 'unknown-dep': depends_on: unknown service(s): ghost");
  assert.equal(r['no-intent'], "program 'no-intent': intent: is required");
  assert.match(r['no-command'], /command: is required/);
  assert.match(r['bad-run'], /intent\.run: must be 'running' or 'stopped'/);
});

void test('finding 13: two records with one name keep the one the name index points to', () => {
  const first = record({ name: 'twin', args: ['1'] });
  const second = record({ name: 'twin', args: ['2'] }, { created_at: 1 });
  const out = sort(entries(first, second), new Map([['twin', first.id]]));
  assert.deepEqual(out.records, [first]);
  assert.equal(out.rejected[0].id, second.id);
  assert.match(out.rejected[0].reason, new RegExp(`name: another stored program \\(${first.id}\\) has the name 'twin'`));
  // Without an index entry the oldest record wins.
  assert.deepEqual(sort(entries(first, second)).records, [second]);
});

void test('finding 13: a dependency cycle quarantines its members, and what depends on a quarantined program follows it', () => {
  const out = sort(
    entries(
      record({ name: 'a', depends_on: ['b'] }),
      record({ name: 'b', depends_on: ['a'] }),
      record({ name: 'c', depends_on: ['a'] }),
      record({ name: 'free' }),
      record({ name: 'broken', health_check: { type: 'nope' } }),
      record({ name: 'needs-broken', depends_on: ['broken'] }),
    ),
  );
  assert.deepEqual(out.records.map((r) => r.config.name), ['free']);
  const r = reasons(out);
  assert.match(r.a, /depends_on: dependency cycle detected: a -> b -> a/);
  assert.match(r.b, /depends_on: dependency cycle detected/);
  assert.equal(r.c, "program 'c': depends_on: unknown service(s): a");
  assert.equal(r['needs-broken'], "program 'needs-broken': depends_on: unknown service(s): broken");
});

void test('unreadable records: not JSON, not an object, a key that is not an id, an id that does not match its key', () => {
  const good = record({ name: 'good' });
  const other = record({ name: 'other' });
  const out = sort([
    [id(), '{not json'],
    [id(), '[1,2]'],
    ['not-a-uuid', JSON.stringify(record({ name: 'x' }))],
    [id(), JSON.stringify(other)],
    [good.id, JSON.stringify(good)],
  ]);
  assert.deepEqual(out.records, [good]);
  assert.deepEqual(
    out.rejected.map((q) => q.reason.replace(/'[^']*'/g, "'…'")),
    ['the stored record is not valid JSON', 'the stored record is not an object', "the key '…' is not a program id", "id: '…' does not match the key it is stored under"],
  );
  assert.equal(out.rejected[0].raw, '{not json');
});

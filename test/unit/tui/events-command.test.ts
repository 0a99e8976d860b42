import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkStatsFlags, EVENTS_PAGE, eventsQuery, fetchEvents, renderEvents } from '../../../tui/cli/commands/events.js';
import { CliError } from '../../../tui/cli/errors.js';

void test('svc events maps flags to API parameters, newest first', () => {
  const q = eventsQuery({ limit: '20', from: '100', to: '200', type: 'process_exit', exitCode: '137', q: 'oom' }, 'abc');
  assert.equal(q.toString(), 'order=desc&limit=20&program_id=abc&from=100&to=200&event_type=process_exit&exit_code=137&q=oom');
  assert.equal(eventsQuery({ limit: '50' }, undefined).toString(), 'order=desc&limit=50');
  assert.throws(() => eventsQuery({ limit: '50', exitCode: 'x' }, undefined), /--exit-code: must be a whole number/);
  // A negative time was sent and refused by svcd (exit 1); it is a bad flag like the others (exit 2).
  assert.throws(() => eventsQuery({ limit: '50', from: '-5' }, undefined), (err: unknown) => err instanceof CliError && err.exitCode === 2 && /--from: must be 1970 or later, got '-5'/.test(err.message));
  assert.throws(() => eventsQuery({ limit: '50', to: 'last tuesday' }, undefined), (err: unknown) => err instanceof CliError && err.exitCode === 2 && /^--to: expected Unix seconds, a date-time .* got 'last tuesday'$/.test(err.message));
  assert.equal(eventsQuery({ limit: '50', from: '2026-11-24 23:18:48Z' }, undefined).get('from'), String(Date.UTC(2026, 10, 24, 23, 18, 48) / 1000), 'a time as the table shows it');
});

void test('svc events: a --type that is no event type and a --from after --to are usage errors in the flags\' words (svcd answered `event_type: …`, `from: must not be after to`, exit 1)', () => {
  const usage = (re: RegExp) => (err: unknown) => err instanceof CliError && err.exitCode === 2 && re.test(err.message);
  assert.throws(() => eventsQuery({ limit: '50', type: 'process_exti' }, undefined), usage(/^--type: unknown event type 'process_exti' \(one of process_started, process_exit, .*\)$/));
  assert.throws(() => eventsQuery({ limit: '50', from: '200', to: '100' }, undefined), usage(/^--from 200 \(1970-01-01 00:03:20Z\) is after --to 100 \(1970-01-01 00:01:40Z\)$/));
  assert.equal(eventsQuery({ limit: '50', from: '100', to: '100' }, undefined).get('to'), '100', 'one second: from equal to to');
});

/** A history of `n` events one second apart, newest first, served with the API's limit/offset/to rules. */
function fakeApi(n: number) {
  let history = Array.from({ length: n }, (_, i) => ({ id: `e${n - i}`, ts_ms: (n - i) * 1000 }));
  const calls: string[] = [];
  const get = async (path: string) => {
    calls.push(path);
    const q = new URLSearchParams(path.split('?')[1]);
    const limit = Number(q.get('limit'));
    if (limit > EVENTS_PAGE) throw new Error('limit: must be at most 1000');
    const to = q.has('to') ? Number(q.get('to')) : Infinity;
    const offset = Number(q.get('offset') ?? 0);
    return history.filter((e) => Math.floor(e.ts_ms / 1000) <= to).slice(offset, offset + limit);
  };
  return { get, calls, record: (id: string, ts_ms: number) => (history = [{ id, ts_ms }, ...history]) };
}

void test('svc events --limit 5000 pages through the API (limit max 1000) instead of failing', async () => {
  const api = fakeApi(2500);
  const rows = await fetchEvents(api.get, eventsQuery({ limit: '5000', type: 'process_exit' }, undefined));
  assert.equal(rows.length, 2500, 'every event, the history being shorter than the limit');
  assert.equal(rows[0].id, 'e2500');
  assert.equal(rows[2499].id, 'e1');
  assert.deepEqual(api.calls, [
    '/api/v1/events?order=desc&limit=1000&event_type=process_exit',
    '/api/v1/events?order=desc&limit=1000&event_type=process_exit&to=2500&offset=1000',
    '/api/v1/events?order=desc&limit=1000&event_type=process_exit&to=2500&offset=2000',
  ]);
  const some = await fetchEvents(fakeApi(5000).get, eventsQuery({ limit: '1500' }, undefined));
  assert.equal(some.length, 1500, 'exactly --limit rows');
  assert.equal(new Set(some.map((r) => r.id)).size, 1500);
  const bounded = fakeApi(3000);
  const older = await fetchEvents(bounded.get, eventsQuery({ limit: '2000', to: '2500' }, undefined));
  assert.match(bounded.calls[1], /&to=2500&offset=1000$/, 'the --to given is kept');
  assert.deepEqual([older[0].id, older[1999].id], ['e2500', 'e501']);
});

void test('svc events paging shows no row twice and ends when events are recorded between pages', async () => {
  const api = fakeApi(1500);
  let n = 0;
  const get = async (path: string) => {
    const page = await api.get(path);
    // Newest first: each shifts the later pages by one. Some land in the newest row's second.
    n++;
    api.record(`later${n}`, 1_600_000 + n);
    if (n === 1) api.record('same', 1_500_500);
    return page;
  };
  const rows = await fetchEvents(get, eventsQuery({ limit: '1500' }, undefined));
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no duplicates');
  assert.equal(rows.length, 1500);
  assert.equal(rows[0].id, 'e1500');
  assert.equal(rows[1499].id, 'e1');
  assert.ok(rows.every((r) => !r.id.startsWith('later')), 'pinned to the second of the newest row');
  // A burst in the pinned second that outpaces the pages ends the paging instead of looping.
  const burst = fakeApi(3000);
  let m = 0;
  const flood = async (path: string) => {
    const page = await burst.get(path);
    for (let i = 0; i < 1000; i++) burst.record(`b${m++}`, 3_000_100);
    return page;
  };
  const partial = await fetchEvents(flood, eventsQuery({ limit: '3000' }, undefined));
  assert.equal(new Set(partial.map((r) => r.id)).size, partial.length);
  assert.throws(() => eventsQuery({ limit: '0' }, undefined), /--limit: must be at least 1/);
});

void test('svc events --stats with a filter is a usage error: the counts would be of every event, not the filtered ones', () => {
  assert.doesNotThrow(() => checkStatsFlags({ limit: '50', stats: true }, false));
  assert.throws(
    () => checkStatsFlags({ limit: '50', stats: true, type: 'process_exit', from: '100' }, false),
    (err: unknown) =>
      err instanceof CliError && err.exitCode === 2 && err.message === '--stats counts every retained event and cannot be narrowed by --from, --type; leave them out, or list the events without --stats',
  );
  assert.throws(() => checkStatsFlags({ limit: '5', stats: true }, true), /cannot be narrowed by --limit; leave it out/);
  assert.throws(() => checkStatsFlags({ limit: '50', stats: true, exitCode: '1', q: 'x', to: '5' }, false), /by --to, --exit-code, --q;/);
});

void test('svc events shows a message carrying program output as text: no escape sequence reaches the terminal, a line break is one row', () => {
  const row = { id: 'a', ts_ms: 1_700_000_000_000, program_name: 'web', event: 'process_unhealthy' as const, exit_code: null, signal: null, retry_count: null };
  // The last line of an exec probe's output: an OSC (retitles the terminal), a clear screen, a carriage return.
  const text = renderEvents([{ ...row, msg: 'health check failing (1 in a row): exec /p.sh: exit 1: bad\x1b]0;PWNED\x07 \x1b[2J\rgone' }, { ...row, id: 'b', msg: 'spawn failed: a\nb' }]);
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  assert.doesNotMatch(text, /[\x00-\x09\x0b-\x1f\x7f]/, 'no control character but the rows\' newlines');
  const lines = text.split('\n');
  assert.equal(lines.length, 3, 'a header and one line per event');
  assert.ok(lines[1].endsWith('health check failing (1 in a row): exec /p.sh: exit 1: bad ↵gone'), lines[1]);
  assert.ok(lines[2].endsWith('spawn failed: a↵b'), lines[2]);
});

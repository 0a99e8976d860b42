import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SUPPRESSION, type Channel, type Suppression } from '../../../../plugins/notify/config/types.js';
import { SuppressionEngine } from '../../../../plugins/notify/engine/engine.js';
import type { Notice } from '../../../../plugins/notify/engine/notice.js';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { kernel, rec } from './kernel.js';

function channel(o: Partial<Channel> = {}, s: Partial<Suppression> = {}): Channel {
  return { name: 'ops', kind: 'slack', url: 'http://127.0.0.1:1/hook', events: [], programs: [], min_severity: 'warning', enabled: true, headers: {}, suppression: { ...DEFAULT_SUPPRESSION, ...s }, ...o };
}

/** Drives the engine the way the service does: observe, flush, and flush again at nextDueAt. */
function harness(channels: Channel[]) {
  const clock = new FakeClock(1_000_000);
  const engine = new SuppressionEngine(kernel);
  engine.configure(channels, clock.now());
  const sent: Notice[] = [];
  let cancel: (() => void) | null = null;
  const pump = () => {
    sent.push(...engine.flush(clock.now()));
    cancel?.();
    const due = engine.nextDueAt(clock.now());
    cancel = due === null ? null : clock.setTimer(due - clock.now(), pump);
  };
  return {
    clock,
    engine,
    sent,
    emit(event: Parameters<typeof rec>[0], program: string | null, extra = {}) {
      engine.observe(rec(event, program, clock.now(), extra), clock.now());
      pump();
    },
  };
}

test('a crash loop of 50 programs to Fatal gives burst messages and one summary with "and N more"', () => {
  const h = harness([channel()]);
  const programs = Array.from({ length: 50 }, (_, i) => `p${i}`);
  for (let retry = 1; retry <= 3; retry++) {
    for (const p of programs) {
      h.emit('process_exit', p);
      h.emit('process_backoff', p, { retry_count: retry });
    }
    h.clock.advance(1000);
  }
  for (const p of programs) {
    h.emit('process_exit', p);
    h.emit('process_fatal', p, { retry_count: 3 });
  }
  h.clock.advance(60_000);
  assert.equal(h.sent.length, 4, h.sent.map((n) => `${n.kind} ${n.program_name} ${n.event}`).join('\n'));
  const [a, b, c, summary] = h.sent;
  for (const n of [a, b, c]) {
    assert.equal(n?.event, 'process_fatal');
    assert.deepEqual(n?.folded, { process_backoff: 3, process_exit: 4 }); // the fatal carries its crash loop
  }
  assert.equal(summary?.kind, 'summary');
  assert.equal(summary?.suppressed.messages, 47);
  assert.deepEqual(summary?.suppressed.by_event, { process_fatal: 47 });
  const counters = h.engine.counters().get('ops');
  assert.equal(counters?.rate_limited, 47);
  assert.equal(counters?.inhibited, 50 * 7);
  assert.equal(counters?.suppressed_pending, 0);
  // The summary came when the bucket allowed one more: 10 s after the burst at 6 a minute.
  assert.equal((summary?.first_ts_ms ?? 0) - ((a?.first_ts_ms ?? 0) + 10_000), 10_000); // after the window, then the token
});

test('a second process_fatal inside the first one\'s window folds the crash loop that led to it too (its backoffs and exits went out as messages of their own)', () => {
  const h = harness([channel({}, { group_window_secs: 30 })]);
  h.emit('process_exit', 'api');
  h.emit('process_backoff', 'api', { retry_count: 1 });
  h.emit('process_fatal', 'api', { retry_count: 1 });
  h.clock.advance(5000);
  h.emit('process_started', 'api'); // `svc start api`: the fatal's inhibition ends, it crashes again
  h.emit('process_exit', 'api');
  h.emit('process_backoff', 'api', { retry_count: 1 });
  h.emit('process_exit', 'api');
  h.emit('process_fatal', 'api', { retry_count: 1 });
  h.clock.advance(60_000);
  assert.deepEqual(
    h.sent.map((n) => [n.event, n.count, n.folded]),
    [['process_fatal', 2, { process_backoff: 2, process_exit: 3 }]],
  );
  assert.equal(h.engine.counters().get('ops')?.inhibited, 5);
});

test('repeats of one (program, event type) inside the window are one message with a count', () => {
  const h = harness([channel({}, { group_window_secs: 30 })]);
  for (let i = 0; i < 5; i++) {
    h.emit('health_restart', 'api');
    h.clock.advance(2000);
  }
  assert.equal(h.sent.length, 0, 'held until the window ends');
  h.clock.advance(30_000);
  assert.equal(h.sent.length, 1);
  assert.equal(h.sent[0]?.count, 5);
  h.emit('health_restart', 'api'); // a new window
  h.clock.advance(30_000);
  assert.deepEqual(h.sent.map((n) => n.count), [5, 1]);
});

test('window 0 sends at once; the rate limit then holds the rest and the next message says how many', () => {
  const h = harness([channel({}, { group_window_secs: 0, burst: 2, rate_per_minute: 60 })]);
  for (const p of ['a', 'b', 'c', 'd']) h.emit('process_fatal', p);
  assert.deepEqual(h.sent.map((n) => n.program_name), ['a', 'b']);
  h.clock.advance(500);
  h.emit('process_fatal', 'e'); // no token yet
  h.clock.advance(500); // a token: nothing pending carries the count, so a summary
  assert.equal(h.sent.length, 3);
  assert.equal(h.sent[2]?.kind, 'summary');
  assert.deepEqual(h.sent[2]?.suppressed, { messages: 3, events: 3, by_event: { process_fatal: 3 } });
  h.clock.advance(1000);
  h.emit('process_fatal', 'f');
  assert.deepEqual(h.sent[3]?.suppressed.messages, 0);
});

test('a pending group carries the suppressed count instead of a separate summary', () => {
  const h = harness([channel({}, { group_window_secs: 5, burst: 1, rate_per_minute: 12 })]);
  h.emit('process_fatal', 'a');
  h.emit('process_fatal', 'b');
  h.clock.advance(5000); // a sent, b rate limited
  h.emit('process_fatal', 'c'); // closes at +10 s, when the token is back (one every 5 s)
  h.clock.advance(5000);
  assert.deepEqual(h.sent.map((n) => [n.kind, n.program_name, n.suppressed.messages]), [['event', 'a', 0], ['event', 'c', 1]]);
});

test('fatal inhibits the program\'s later backoffs and exits until it starts again', () => {
  const h = harness([channel({}, { group_window_secs: 0 })]);
  h.emit('process_fatal', 'api');
  h.emit('process_backoff', 'api');
  h.emit('process_exit', 'api');
  h.emit('process_backoff', 'web');
  assert.deepEqual(h.sent.map((n) => `${n.program_name} ${n.event}`), ['api process_fatal', 'web process_backoff']);
  h.emit('process_started', 'api');
  h.clock.advance(60_000);
  h.emit('process_backoff', 'api');
  assert.equal(h.sent.at(-1)?.event, 'process_backoff');
  assert.equal(h.engine.counters().get('ops')?.inhibited, 2);
});

test('inhibition can be turned off', () => {
  const h = harness([channel({}, { group_window_secs: 0, burst: 10, inhibit_backoff_after_fatal: false })]);
  h.emit('process_fatal', 'api');
  h.emit('process_backoff', 'api');
  assert.equal(h.sent.length, 2);
});

test('a daemon shutdown inhibits program exits, backoffs and fatals, not the shutdown itself', () => {
  const h = harness([channel({ min_severity: 'info' }, { group_window_secs: 0, burst: 10 })]);
  h.engine.shutdownBegun();
  h.emit('process_exit', 'api', { exit_code: 1 });
  h.emit('process_fatal', 'web');
  h.emit('system_shutdown', null);
  assert.deepEqual(h.sent.map((n) => n.event), ['system_shutdown']);
  h.emit('system_startup', null);
  h.emit('process_exit', 'api', { exit_code: 1 });
  assert.deepEqual(h.sent.map((n) => n.event), ['system_shutdown', 'system_startup', 'process_exit']);
});

test('matching: event types, program globs, minimum severity, enabled', () => {
  const h = harness([
    channel({ name: 'fatal-only', events: ['process_fatal'] }, { group_window_secs: 0 }),
    channel({ name: 'api-all', programs: ['api-*'], min_severity: 'info' }, { group_window_secs: 0 }),
    channel({ name: 'critical', min_severity: 'critical' }, { group_window_secs: 0 }),
    channel({ name: 'off', enabled: false }, { group_window_secs: 0 }),
  ]);
  h.emit('process_fatal', 'web');
  h.emit('process_started', 'api-eu');
  h.emit('process_exit', 'api-eu', { exit_code: 0 }); // info: a clean exit
  h.emit('process_backoff', 'worker');
  h.emit('system_startup', null); // no program: a program selector never matches it
  const got = h.sent.map((n) => `${n.channel}:${n.program_name}:${n.event}`);
  assert.deepEqual(got, ['fatal-only:web:process_fatal', 'critical:web:process_fatal', 'api-all:api-eu:process_started', 'api-all:api-eu:process_exit']);
});

test('reconfiguring keeps the bucket of a channel that keeps its name', () => {
  const h = harness([channel({}, { group_window_secs: 0, burst: 1 })]);
  h.emit('process_fatal', 'a');
  h.engine.configure([channel({ min_severity: 'critical' }, { group_window_secs: 0, burst: 1 })], h.clock.now());
  h.emit('process_fatal', 'b');
  assert.equal(h.sent.length, 1, 'the spent token stays spent');
  h.engine.configure([channel({ name: 'renamed' }, { group_window_secs: 0, burst: 1 })], h.clock.now());
  h.emit('process_fatal', 'c');
  assert.equal(h.sent.at(-1)?.channel, 'renamed');
});

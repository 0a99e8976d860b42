import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_DELIVERY, DEFAULT_SUPPRESSION, type Channel } from '../../../../plugins/notify/config/types.js';
import { Deliverer, type DeliveryJob } from '../../../../plugins/notify/delivery/deliverer.js';
import { messageOf, payloadFor } from '../../../../plugins/notify/delivery/payload.js';
import type { Attempt, DeliveryResult } from '../../../../plugins/notify/delivery/send.js';
import { noSuppressed, type Notice } from '../../../../plugins/notify/engine/notice.js';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { rec } from './kernel.js';

const channel: Channel = { name: 'ops', kind: 'custom', url: 'http://127.0.0.1:1/h', events: [], programs: [], min_severity: 'warning', enabled: true, headers: {}, suppression: DEFAULT_SUPPRESSION };
const record = rec('process_fatal', 'api', 1_000_000, { msg: 'gave up after 3 retries, see https://wiki.example/runbook' });
const notice: Notice = { channel: 'ops', kind: 'event', severity: 'critical', event: 'process_fatal', program_id: 'id-api', program_name: 'api', count: 2, first_ts_ms: 1_000_000, last_ts_ms: 1_004_000, record, folded: { process_backoff: 3 }, suppressed: { messages: 48, events: 60, by_event: { process_fatal: 48, process_exit: 12 } } };

test('the summary line: severity, host, program, count, message without links, folded, and "and N more"', () => {
  assert.equal(
    messageOf(notice, 'box').line,
    '[CRITICAL] box: api process_fatal x2 in 4s: gave up after 3 retries, see [link removed] (after 3 process_backoff) (and 48 more suppressed: 48 process_fatal, 12 process_exit)',
  );
  const summary = { ...notice, kind: 'summary' as const, event: null, program_name: null, record: null, folded: {} };
  assert.equal(messageOf(summary, 'box').line, '[CRITICAL] box: 48 more notifications were suppressed by the rate limit: 48 process_fatal, 12 process_exit');
});

test('payload shapes: Slack text, Discord content, Teams Adaptive Card, custom record', () => {
  const m = messageOf(notice, 'box');
  assert.deepEqual(payloadFor('slack', m), { text: m.line });
  assert.deepEqual(payloadFor('discord', m), { content: m.line, username: 'svc', allowed_mentions: { parse: [] } });
  const teams = payloadFor('teams', m) as { attachments: { content: { body: { text: string; color: string }[] } }[] };
  assert.equal(teams.attachments[0]?.content.body[0]?.text, m.line);
  assert.equal(teams.attachments[0]?.content.body[0]?.color, 'attention');
  const custom = payloadFor('custom', m) as Record<string, unknown>;
  assert.deepEqual(Object.keys(custom), ['version', 'kind', 'channel', 'host', 'summary', 'severity', 'event', 'program_id', 'program_name', 'count', 'first_ts_ms', 'last_ts_ms', 'folded', 'suppressed', 'record']);
  assert.equal(custom.record, record);
});

function deliverer(answers: Attempt[], opts: Partial<typeof DEFAULT_DELIVERY> = {}) {
  const clock = new FakeClock();
  const calls: number[] = [];
  const results: DeliveryResult[] = [];
  const dropped: DeliveryJob[] = [];
  const pending: (() => void)[] = [];
  const d = new Deliverer({ ...DEFAULT_DELIVERY, ...opts }, {
    clock,
    post: () => {
      calls.push(clock.now());
      const a = answers.length > 1 ? answers.shift()! : answers[0];
      return new Promise((resolve) => pending.push(() => resolve(a)));
    },
    onResult: (_job, r) => results.push(r),
    onDropped: (job) => dropped.push(job),
  });
  /** Answers every request in flight and lets the promise chain run. */
  const settle = () => new Promise((r) => setImmediate(r)); // the promise chain runs; no time passes on the fake clock
  const answer = async () => {
    await settle();
    while (pending.length > 0) pending.shift()!();
    await settle();
  };
  return { clock, d, calls, results, dropped, answer };
}

const job = (): DeliveryJob => ({ channel, message: messageOf({ ...notice, suppressed: noSuppressed() }, 'box') });
const http = (status: number): Attempt => ({ status, error: status < 300 ? null : `HTTP ${status}`, retryable: status >= 500 || status === 429 });

test('5xx is retried with doubling backoff until it succeeds', async () => {
  const h = deliverer([http(500), http(503), http(200)], { retry_backoff_ms: 1000 });
  h.d.enqueue(job());
  await h.answer();
  h.clock.advance(999);
  await h.answer();
  assert.equal(h.calls.length, 1);
  h.clock.advance(1);
  await h.answer();
  h.clock.advance(2000);
  await h.answer();
  assert.deepEqual(h.calls.map((t) => t - (h.calls[0] ?? 0)), [0, 1000, 3000]);
  assert.deepEqual(h.results.map((r) => [r.ok, r.status, r.attempts]), [[true, 200, 3]]);
  assert.equal(h.d.stats('ops').retries, 2);
});

test('a 4xx is not retried; retries run out on a receiver that keeps failing', async () => {
  const h = deliverer([http(400)]);
  h.d.enqueue(job());
  await h.answer();
  assert.deepEqual(h.results.map((r) => [r.ok, r.attempts, r.error]), [[false, 1, 'HTTP 400']]);
  const n = deliverer([{ status: null, error: 'ECONNREFUSED: connect', retryable: true }], { retries: 2, retry_backoff_ms: 10 });
  n.d.enqueue(job());
  for (let i = 0; i < 4; i++) {
    await n.answer();
    n.clock.advance(100);
  }
  assert.deepEqual(n.results.map((r) => [r.ok, r.attempts]), [[false, 3]]);
  assert.equal(n.d.stats('ops').failed, 1);
});

test('the queue is bounded: beyond queue_size messages are dropped and counted, never waited for', async () => {
  const h = deliverer([http(200)], { queue_size: 2, concurrency: 1 });
  const accepted = [1, 2, 3, 4].map(() => h.d.enqueue(job()));
  assert.deepEqual(accepted, [true, true, true, false]); // one in flight, two waiting
  assert.equal(h.d.stats('ops').dropped, 1);
  assert.equal(h.dropped.length, 1);
  await h.answer();
  await h.answer();
  await h.answer();
  assert.equal(h.results.length, 3);
});

test('a receiver that echoes the webhook URL or a header in its error page does not put them in the result or the status', async () => {
  const secretChannel: Channel = { ...channel, url: 'http://127.0.0.1:1/hooks/T0A1B2C3/xoxb-SECRETPATH?token=SECRETQUERY', headers: { Authorization: 'Bearer SECRETHEADER' } };
  const page = 'HTTP 404: <pre>Cannot POST /hooks/T0A1B2C3/xoxb-SECRETPATH?token=SECRETQUERY</pre> (auth Bearer SECRETHEADER, token SECRETHEADER, decoded xoxb-SECRETPATH)';
  const h = deliverer([{ status: 404, error: page, retryable: false }]);
  h.d.enqueue({ channel: secretChannel, message: job().message });
  await h.answer();
  const error = h.results[0]?.error ?? '';
  assert.match(error, /^HTTP 404: <pre>Cannot POST \[redacted\]<\/pre>/);
  assert.doesNotMatch(error, /SECRET|T0A1B2C3/);
  assert.doesNotMatch(h.d.stats('ops').last_error ?? '', /SECRET/);
});

test('a message waiting for its retry holds no worker: another channel is delivered during the backoff', async () => {
  const clock = new FakeClock();
  const calls: { url: string; at: number }[] = [];
  const results: [string, boolean, number][] = [];
  const d = new Deliverer({ ...DEFAULT_DELIVERY, concurrency: 1, retries: 3, retry_backoff_ms: 60_000 }, {
    clock,
    post: async (url) => {
      calls.push({ url, at: clock.now() });
      return url.includes('dead') ? { status: null, error: 'ECONNREFUSED: connect', retryable: true } : { status: 200, error: null, retryable: false };
    },
    onResult: (j, r) => results.push([j.channel.name, r.ok, r.attempts]),
    onDropped: () => undefined,
  });
  const settle = () => new Promise((r) => setImmediate(r));
  const dead = { ...channel, name: 'dead', url: 'http://127.0.0.1:1/dead' };
  d.enqueue({ channel: dead, message: job().message });
  d.enqueue({ channel, message: job().message });
  await settle();
  assert.deepEqual(calls, [{ url: dead.url, at: clock.now() }, { url: channel.url, at: clock.now() }], 'ops is not held behind the dead channel\'s backoff');
  assert.deepEqual(results, [['ops', true, 1]]);
  assert.equal(d.busy(), 1, 'the dead channel\'s message still counts as being delivered');
  for (const ms of [60_000, 120_000, 240_000]) {
    clock.advance(ms);
    await settle();
  }
  assert.deepEqual(results, [['ops', true, 1], ['dead', false, 4]]);
  assert.equal(d.busy(), 0);
});

test('retries and new messages share the workers: a retry whose backoff ended waits for a free one', async () => {
  const h = deliverer([http(503), http(200)], { concurrency: 1, retry_backoff_ms: 1000 });
  h.d.enqueue(job()); // 503, then retried at +1000
  await h.answer();
  h.d.enqueue(job());
  await h.answer(); // the second message takes the worker (200)
  h.clock.advance(1000);
  await h.answer();
  assert.equal(h.calls.length, 3);
  assert.deepEqual(h.results.map((r) => [r.ok, r.attempts]), [[true, 1], [true, 2]]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attempt } from '../../../../plugins/notify/delivery/send.js';
import { NotifyService } from '../../../../plugins/notify/service.js';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import type { EventInput } from '../../../../state/events/types.js';
import { kernel, rec } from './kernel.js';

/** A NotifyService on a fake clock with a fake receiver; `answer` decides each POST (null: it hangs). */
function service(toml: string, answer: (url: string) => Attempt | null) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-notify-service-'));
  const file = join(dir, 'notify.toml');
  writeFileSync(file, toml);
  const clock = new FakeClock(1_000_000);
  const posts: { url: string; body: any }[] = [];
  const events: EventInput[] = [];
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const s = new NotifyService({
    file,
    kernel,
    clock,
    host: 'box',
    events: { emit: (e) => events.push(e) },
    log: { info: () => undefined, warn: (msg, fields) => warnings.push({ msg, fields }) },
    post: (url, body) => {
      posts.push({ url, body: JSON.parse(body) });
      const a = answer(url);
      return a ? Promise.resolve(a) : new Promise<Attempt>(() => undefined);
    },
  });
  assert.equal(s.reload(), true);
  return { s, file, clock, posts, events, warnings, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const settle = () => new Promise((r) => setImmediate(r));

test('at shutdown a process_fatal still inside its group window and system_shutdown are sent and recorded, not lost', async () => {
  const h = service('[[channel]]\nname = "ops"\nkind = "custom"\nurl = "http://127.0.0.1:1/hook"\nmin_severity = "info"\nevents = ["process_fatal", "system_shutdown"]\n', () => ({ status: 200, error: null, retryable: false }));
  try {
    h.s.onEvent(rec('process_fatal', 'api', h.clock.now()));
    h.clock.advance(2000); // the default 10 s window is still open
    h.s.onEvent(rec('system_shutdown', null, h.clock.now()));
    assert.equal(h.posts.length, 0);
    await h.s.close(5000);
    assert.deepEqual(h.posts.map((p) => p.body.event).sort(), ['process_fatal', 'system_shutdown']);
    assert.deepEqual(h.events.map((e) => e.event), ['notify_sent', 'notify_sent']);
    assert.deepEqual(h.warnings, []);
  } finally {
    h.cleanup();
  }
});

test('a hung receiver holds shutdown no longer than the drain bound, and the cut-off is logged', async () => {
  const h = service('[[channel]]\nname = "ops"\nkind = "slack"\nurl = "http://127.0.0.1:1/hook"\ngroup_window_secs = 0\n', () => null);
  try {
    h.s.onEvent(rec('process_fatal', 'api', h.clock.now()));
    await settle();
    assert.equal(h.posts.length, 1);
    let closed = false;
    const closing = h.s.close(5000).then(() => (closed = true));
    await settle();
    h.clock.advance(4999);
    await settle();
    assert.equal(closed, false);
    h.clock.advance(1);
    await closing;
    assert.equal(h.warnings.length, 1);
    assert.match(h.warnings[0]?.msg ?? '', /not delivered at shutdown/);
    assert.deepEqual(h.warnings[0]?.fields, { queued: 0, in_flight: 1, drain_ms: 5000 });
    assert.deepEqual(h.events, [], 'nothing recorded after the cut-off (the history is closing)');
  } finally {
    h.cleanup();
  }
});

test('a message being retried goes to the URL in force after a reload, and stops when its channel is removed or disabled', async () => {
  const toml = (url: string, extra = '') => `[delivery]\nretry_backoff_ms = 1000\n[[channel]]\nname = "ops"\nkind = "slack"\nurl = "${url}"\ngroup_window_secs = 0\n${extra}`;
  const h = service(toml('http://127.0.0.1:1/old-dead'), (url) => (url.includes('dead') ? { status: null, error: 'ECONNREFUSED: connect', retryable: true } : { status: 200, error: null, retryable: false }));
  const reload = (text: string) => {
    writeFileSync(h.file, text);
    assert.equal(h.s.reload(), true);
  };
  const urls = () => h.posts.map((p) => p.url);
  try {
    h.s.onEvent(rec('process_fatal', 'api', h.clock.now()));
    await settle();
    assert.deepEqual(urls(), ['http://127.0.0.1:1/old-dead']);
    // The URL is fixed while the message waits for its retry: the retry goes to the new one.
    reload(toml('http://127.0.0.1:1/new-ok'));
    h.clock.advance(1000);
    await settle();
    assert.deepEqual(urls(), ['http://127.0.0.1:1/old-dead', 'http://127.0.0.1:1/new-ok']);
    assert.match(h.events.at(-1)?.msg ?? '', /delivered \(HTTP 200, 2 attempts\)/);
    // A channel disabled while its message waits: no more attempts, and the history says why.
    reload(toml('http://127.0.0.1:1/dead-again'));
    h.s.onEvent(rec('process_fatal', 'web', h.clock.now()));
    await settle();
    reload(toml('http://127.0.0.1:1/dead-again', 'enabled = false\n'));
    h.clock.advance(1000);
    await settle();
    assert.deepEqual(urls().slice(2), ['http://127.0.0.1:1/dead-again']);
    assert.equal(h.events.at(-1)?.event, 'notify_failed');
    assert.match(h.events.at(-1)?.msg ?? '', /not sent: channel ops was disabled by a reload of the configuration \(last attempt: ECONNREFUSED/);
    // Removed: the same.
    reload(toml('http://127.0.0.1:1/dead-again'));
    h.s.onEvent(rec('process_fatal', 'db', h.clock.now()));
    await settle();
    reload('');
    h.clock.advance(1000);
    await settle();
    assert.equal(h.posts.length, 4);
    assert.match(h.events.at(-1)?.msg ?? '', /not sent: channel ops was removed by a reload/);
    await h.s.close();
  } finally {
    h.cleanup();
  }
});

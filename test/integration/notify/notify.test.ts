import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot, TIME_SCALE, type RunningDaemon } from '../../helpers/daemon.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';
import { webhookReceiver } from '../../helpers/webhook-receiver.js';
import { runCli } from '../../helpers/cli.js';

const SECRET = 'notify-admin-secret';
const admin = { authorization: `Bearer ${SECRET}` };

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>;

/** Replaces conf/notify.toml the way an editor does (write beside, rename over). */
function writeNotify(root: string, text: string): void {
  const file = join(root, 'conf', 'notify.toml');
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

describe('notify plugin: real svcd, notify.so and webhook receivers on loopback', () => {
  let d: RunningDaemon;
  let ok: Receiver;
  const tokens: Record<'viewer' | 'operator', { authorization: string }> = { viewer: { authorization: '' }, operator: { authorization: '' } };
  const put = (body: unknown, who = admin) => d.request('PUT', '/api/v1/system/notify', body, who);
  const view = (who: Record<string, string> = admin) => d.request('GET', '/api/v1/system/notify', undefined, who);
  const create = async (body: Record<string, unknown>) => {
    const res = await d.request('POST', '/api/v1/programs', body, admin);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };

  before(async () => {
    ok = await webhookReceiver([200]);
    const signer = testSigner();
    const root = tempRoot('svc-notify-');
    const config = licensedRoot(root, signer, { secret: SECRET, key: signer.issue({ grants: ['security', 'notify'] }), plugins: ['security', 'notify'] });
    d = await startDaemon(root, { config });
    for (const role of ['viewer', 'operator'] as const) {
      const res = await d.request('POST', '/api/v1/auth/tokens', { name: role, role }, admin);
      assert.equal(res.status, 201);
      tokens[role] = { authorization: `Bearer ${res.body.secret}` };
    }
  });
  after(async () => {
    await d?.stop();
    await ok?.close();
    if (d) removeRoot(d.root);
  });

  test('a crash loop of 50 programs to Fatal gives burst (3) messages and one "and 47 more" summary', async () => {
    const storm = await webhookReceiver([200]);
    try {
      // The defaults, as docs/notify.md counts them: a 10 s group window folds each program's
      // exits and backoffs into its fatal even when a loaded machine spreads its crash loop over
      // seconds (a 3 s window once let process_exit out first).
      const res = await put({ channels: [{ name: 'storm', kind: 'custom', url: storm.url(), programs: ['crash-*'] }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) ids.push(await create({ name: `crash-${i}`, command: 'sh', args: ['-c', 'exit 3'], retry_limit: 2, backoff_secs: 0.2, backoff_max_secs: 0.2, autostart: false }));
      // All 50 start together, so the storm is one storm (the documented count is about that case).
      const started = await d.request('POST', '/api/v1/programs/batch', { target_ids: ids, action: { type: 'Start' } }, admin);
      assert.equal(started.status < 300, true, JSON.stringify(started.body));
      await eventually(async () => {
        const list = (await d.request('GET', '/api/v1/programs', undefined, admin)).body as { id: string; status: string }[];
        return list.filter((p) => ids.includes(p.id) && p.status === 'Fatal').length === 50;
      }, 60_000, 'all 50 programs Fatal');
      // The burst goes out when the windows close; the summary when the bucket has a token again (10 s at 6 a minute).
      await eventually(() => storm.received.some((r) => r.body.kind === 'summary'), 40_000, 'the summary message');
      const idle = await eventually(async () => {
        const ch = (await view()).body.channels.find((c: { name: string }) => c.name === 'storm');
        return ch.status.pending_groups === 0 && ch.status.suppressed_pending === 0 && (await view()).body.queue.in_flight === 0 && ch;
      }, 10_000, 'nothing pending');
      assert.equal(storm.received.length, 4, storm.received.map((r) => r.body.summary).join('\n'));
      const [first, , , summary] = storm.received.map((r) => r.body);
      assert.equal(first.version, 1);
      assert.equal(first.event, 'process_fatal');
      assert.match(first.program_name, /^crash-\d+$/);
      assert.deepEqual(Object.keys(first.record).sort(), ['duration_secs', 'event', 'exit_code', 'id', 'msg', 'program_id', 'program_name', 'retry_count', 'signal', 'ts', 'ts_ms']);
      assert.equal(typeof first.host, 'string');
      assert.doesNotMatch(first.summary, /https?:/);
      assert.equal(summary.kind, 'summary');
      assert.equal(summary.suppressed.messages, 47);
      assert.match(summary.summary, /47 more notifications were suppressed/);
      assert.equal(idle.status.rate_limited, 47);
      assert.ok(idle.status.inhibited >= 50 * 2, `backoffs and exits folded into the fatals: ${idle.status.inhibited}`);
      const metrics = await fetch(`${d.url}/metrics`, { headers: admin }).then((r) => r.text());
      assert.match(metrics, /svc_notify_suppressed_total\{channel="storm",reason="rate_limited"\} 47/);
      assert.match(metrics, /svc_notify_deliveries_total\{channel="storm",outcome="delivered"\} 4/);
      // The history is written behind the deliveries: the last notify_sent may still be queued.
      const stormSent = async () => ((await d.request('GET', '/api/v1/events?event_type=notify_sent&limit=100', undefined, admin)).body as { msg: string }[]).filter((e) => e.msg.includes('channel storm')).length;
      await eventually(async () => (await stormSent()) >= 4, 5000, 'four notify_sent events');
      assert.equal(await stormSent(), 4);
      for (const id of ids) await d.request('DELETE', `/api/v1/programs/${id}`, undefined, admin);
    } finally {
      await storm.close();
    }
  });

  test('a receiver answering 500 then 200 gets the retry; a 4xx is not retried', async () => {
    const flaky = await webhookReceiver([500, 200]);
    try {
      const res = await put({ delivery: { retry_backoff_ms: 100 }, channels: [{ name: 'flaky', kind: 'slack', url: flaky.url(), events: ['process_fatal'], programs: ['retry-me'], group_window_secs: 0 }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = await create({ name: 'retry-me', command: 'sh', args: ['-c', 'exit 1'], retry_limit: 0 });
      await eventually(() => flaky.received.length === 2, 15_000, 'the retry');
      assert.deepEqual(flaky.received[0]?.body, flaky.received[1]?.body);
      assert.match(flaky.received[1]?.body.text, /^\[CRITICAL\] .*: retry-me process_fatal: gave up after 0 retries/);
      const status = await eventually(async () => {
        const ch = (await view()).body.channels[0];
        return ch.status.delivered === 1 && ch.status;
      }, 5000, 'delivered');
      assert.equal(status.retries, 1);
      // The history is written behind the delivery count: wait for the record.
      let events: { event: string; msg: string }[] = [];
      await eventually(async () => {
        events = (await d.request('GET', `/api/v1/programs/${id}/events`, undefined, admin)).body;
        return events.some((e) => e.event === 'notify_sent');
      }, 5000, 'notify_sent recorded').catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(events.map((e) => e.event))}`));
      assert.ok(events.some((e) => e.event === 'notify_sent' && /HTTP 200, 2 attempts/.test(e.msg)), JSON.stringify(events.map((e) => e.msg)));

      flaky.setAnswers([404]);
      const tested = await d.request('POST', '/api/v1/system/notify/test', { channel: 'flaky' }, admin);
      assert.equal(tested.status, 200);
      assert.equal(tested.body.ok, false);
      assert.equal(tested.body.status, 404);
      assert.equal(tested.body.attempts, 1);
      await d.request('DELETE', `/api/v1/programs/${id}`, undefined, admin);
    } finally {
      await flaky.close();
    }
  });

  test('a receiver that hangs slows neither GET /api/v1/programs nor restarts', async () => {
    const hang = await webhookReceiver(['hang']);
    try {
      const res = await put({ delivery: { timeout_secs: 30, retries: 0 }, channels: [{ name: 'hang', kind: 'discord', url: hang.url(), min_severity: 'info', group_window_secs: 0, burst: 100, rate_per_minute: 6000 }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = await create({ name: 'steady', command: 'sleep', args: ['600'] });
      await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}`, undefined, admin)).body.status === 'Running', 10_000, 'Running');
      await eventually(() => hang.received.length >= 1, 10_000, 'a delivery that hangs');
      for (let i = 0; i < 3; i++) {
        const pid = (await d.request('GET', `/api/v1/programs/${id}`, undefined, admin)).body.pid;
        const t0 = performance.now();
        assert.equal((await d.request('POST', `/api/v1/programs/${id}/restart`, undefined, admin)).status < 300, true);
        await eventually(async () => {
          const p = (await d.request('GET', `/api/v1/programs/${id}`, undefined, admin)).body;
          return p.status === 'Running' && p.pid !== pid;
        }, 10_000, `restart ${i}`);
        // A path blocked by the hanging delivery would wait for its 30 s timeout; the bounds stay
        // well under it without failing a slow machine.
        assert.ok(performance.now() - t0 < 15_000, `restart ${i} took ${performance.now() - t0} ms`);
        const t1 = performance.now();
        assert.equal((await d.request('GET', '/api/v1/programs', undefined, admin)).status, 200);
        assert.ok(performance.now() - t1 < 5000, `GET /api/v1/programs took ${performance.now() - t1} ms`);
      }
      const queue = (await view()).body.queue;
      assert.ok(queue.in_flight >= 1, `deliveries still hanging: ${JSON.stringify(queue)}`);
      await d.request('DELETE', `/api/v1/programs/${id}`, undefined, admin);
    } finally {
      await hang.close();
    }
  });

  test('hot reload: an edit applies within a second; an invalid edit keeps the last good channels and says why', async () => {
    const good = ['[[channel]]', 'name = "edited"', 'kind = "teams"', `url = "${ok.url('/teams')}"`, 'events = ["process_fatal"]', ''].join('\n');
    writeNotify(d.root, good);
    const t0 = Date.now();
    await eventually(async () => (await view()).body.channels.map((c: { name: string }) => c.name).join() === 'edited', 3000, 'the edit applied');
    // Within a second on an idle machine (the watch, then follow-up checks up to 1.5 s); nothing
    // polls slowly behind it, so a loaded one only needs a wider bound.
    assert.ok(Date.now() - t0 < 1500 * TIME_SCALE, `applied after ${Date.now() - t0} ms`);
    writeNotify(d.root, `${good}min_severity = "loud"\n`);
    const broken = await eventually(async () => (await view()).body.error, 3000, 'the error shown').catch((err) => {
      throw new Error(`${(err as Error).message}\n${d.stderr.filter((l) => l.includes('notify')).join('\n')}`);
    });
    assert.match(broken.message, /notify\.toml:6: channel\[0\] \(name=edited\)\.min_severity: must be one of info, warning, critical/);
    const v = (await view()).body;
    assert.deepEqual(v.channels.map((c: { name: string; min_severity: string }) => [c.name, c.min_severity]), [['edited', 'warning']]);
    assert.ok(d.stderr.some((l) => l.includes('configuration not applied') && l.includes('min_severity')), 'logged');
    writeNotify(d.root, 'channel = 5\n[[oops\n');
    assert.match((await eventually(async () => ((await view()).body.error?.message.includes(':2:') ? (await view()).body.error : null), 3000, 'a TOML syntax error')).message, /notify\.toml:2:\d+:/);
    writeNotify(d.root, good);
    await eventually(async () => (await view()).body.error === null, 3000, 'the error cleared');
    const tested = await d.request('POST', '/api/v1/system/notify/test', { channel: 'edited' }, tokens.operator);
    assert.equal(tested.status, 200);
    assert.equal(tested.body.ok, true);
    const card = ok.received.at(-1)?.body;
    assert.equal(card.attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
    assert.match(card.attachments[0].content.body[0].text, /test message from svc for channel 'edited'/);
  });

  test('roles: viewers see webhook URLs redacted, operators manage channels without seeing them, admins see all', async () => {
    const secretUrl = ok.url('/services/T000/B000/very-secret');
    const res = await put({ channels: [{ name: 'ops', kind: 'slack', url: secretUrl, headers: { 'X-Key': 'k-123' } }] });
    assert.equal(res.status, 200);
    assert.equal((await view()).body.channels[0].url, secretUrl);
    for (const who of [tokens.viewer, tokens.operator]) {
      const seen = (await view(who)).body;
      assert.equal(seen.channels[0].url, ok.url('/[redacted]'));
      assert.deepEqual(seen.channels[0].headers, { 'X-Key': '[redacted]' });
      assert.doesNotMatch(JSON.stringify(seen), /very-secret|k-123/);
    }
    assert.equal((await put({ channels: [] }, tokens.viewer)).status, 403);
    assert.equal((await d.request('POST', '/api/v1/system/notify/test', { channel: 'ops' }, tokens.viewer)).status, 403);
    // The operator sends back what it saw, with one change: the stored URL and header stay.
    const seen = (await view(tokens.operator)).body.channels[0];
    const edited = await put({ channels: [{ name: 'ops', kind: 'slack', url: seen.url, headers: seen.headers, min_severity: 'critical' }] }, tokens.operator);
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const stored = (await view()).body.channels[0];
    assert.deepEqual([stored.url, stored.headers, stored.min_severity], [secretUrl, { 'X-Key': 'k-123' }, 'critical']);
    assert.match(readFileSync(join(d.root, 'conf', 'notify.toml'), 'utf8'), /min_severity = "critical"/);
    const bad = await put({ channels: [{ name: 'new', kind: 'slack', url: seen.url }] }, tokens.operator);
    assert.equal(bad.status, 400);
    const invalid = await put({ channels: [{ name: 'x', kind: 'pager', url: 'http://127.0.0.1:1/' }] }, tokens.operator);
    assert.equal(invalid.status, 400);
    assert.match(invalid.body.message, /channels\[0\] \(name=x\)\.kind: must be one of slack, discord, teams, custom/);
    const tested = await d.request('POST', '/api/v1/system/notify/test', { channel: 'ops' }, tokens.operator);
    assert.equal(tested.body.ok, true);
    assert.equal(ok.received.at(-1)?.path, '/services/T000/B000/very-secret');
    assert.equal(ok.received.at(-1)?.headers['x-key'], 'k-123');
  });

  test('CLI: svc notify apply, channels, status and test', async () => {
    const env = { SVC_URL: d.url, SVC_TOKEN: tokens.operator.authorization.slice('Bearer '.length) };
    const file = join(d.root, 'cli-notify.toml');
    writeFileSync(file, ['[suppression]', 'burst = 5', '[[channel]]', 'name = "cli"', 'kind = "discord"', `url = "${ok.url('/discord')}"`, 'programs = ["web-*"]', ''].join('\n'));
    const applied = await runCli(['notify', 'apply', file], env);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /applied 1 channel to .*conf\/notify\.toml/);
    const channels = await runCli(['notify', 'channels'], env);
    assert.match(channels.stdout, /cli\s+discord\s+yes\s+warning\s+\*\s+web-\*\s+http:\/\/127\.0\.0\.1:\d+\/\[redacted\]/);
    const tested = await runCli(['notify', 'test', 'cli'], env);
    assert.equal(tested.code, 0, tested.stderr);
    assert.match(tested.stdout, /delivered to cli: HTTP 200/);
    assert.equal(ok.received.at(-1)?.body.username, 'svc');
    const status = await runCli(['notify', 'status'], env);
    assert.match(status.stdout, /error: none/);
    assert.match(status.stdout, /^cli\s+on\s+/m);
    writeFileSync(file, '[[channel]]\nname = "bad"\nkind = "slack"\nurl = "ftp://x/"\n');
    const refused = await runCli(['notify', 'apply', file], env);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /cli-notify\.toml:4: channel\[0\] \(name=bad\)\.url: must be http or https/);
    const missing = await runCli(['notify', 'test', 'nope'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no channel named 'nope'/);
  });
});

describe('notify routes without the notify plugin', () => {
  test('answer 404', async () => {
    const d = await startDaemon();
    try {
      assert.equal((await d.request('GET', '/api/v1/system/notify')).status, 404);
      assert.equal((await d.request('PUT', '/api/v1/system/notify', { channels: [] })).status, 404);
      assert.equal((await d.request('POST', '/api/v1/system/notify/test', { channel: 'x' })).status, 404);
    } finally {
      await d.stop();
      removeRoot(d.root);
    }
  });
});

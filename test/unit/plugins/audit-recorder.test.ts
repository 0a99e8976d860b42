import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { auditMiddleware } from '../../../api/auth/audit.js';
import { errorMiddleware } from '../../../api/errors.js';
import type { AuditEntry } from '../../../plugins/security/audit/chain.js';
import { ANONYMOUS_REFUSALS_PER_MINUTE, AuditRecorder } from '../../../plugins/security/audit/recorder.js';
import { SvcError } from '../../../state/errors.js';

/** An audit log in memory whose appends fail while `broken` is set, like a full disk. */
class FakeLog {
  readonly entries: AuditEntry[] = [];
  broken = false;
  append(entry: AuditEntry): Promise<void> {
    if (this.broken) return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    this.entries.push(entry);
    return Promise.resolve();
  }
}

/** A Koa app with the audit middleware in front of a route that counts the changes it applies. */
async function serve(recorder: AuditRecorder, now: () => number) {
  let applied = 0;
  const app = new Koa();
  app.use(auditMiddleware(recorder, now));
  app.use(errorMiddleware({ error: () => undefined }));
  app.use(async (ctx) => {
    if (ctx.get('authorization') !== 'Bearer ok') throw new SvcError('SVC_UNAUTHORIZED', 'unauthorized');
    ctx.state.principal = { kind: 'secret', role: 'admin' };
    if (ctx.method === 'POST') applied += 1;
    ctx.body = { applied };
  });
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, auth = 'Bearer ok') => {
    const res = await fetch(`${base}/api/v1/programs/x/restart`, { method, headers: { authorization: auth } });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  };
  return { call, applied: () => applied, close: () => new Promise((r) => server.close(r)) };
}

test('a log that cannot be written refuses every later state change with 503 until it can; reads go on', async () => {
  const log = new FakeLog();
  const errors: unknown[] = [];
  const recorder = new AuditRecorder(log, () => 1000, (err) => errors.push(err));
  const app = await serve(recorder, () => 1000);
  try {
    assert.equal((await app.call('POST')).status, 200);
    log.broken = true;
    assert.equal((await app.call('POST')).status, 200, 'the change whose own record fails was already applied');
    assert.equal(errors.length, 1);
    const refused = await app.call('POST');
    assert.equal(refused.status, 503);
    assert.match(refused.body.message ?? '', /the audit log cannot be written \(ENOSPC\): state changes are refused until it can; reads still work/);
    assert.equal(app.applied(), 2, 'the refused change was not applied');
    assert.equal((await app.call('GET')).status, 200);
    log.broken = false;
    assert.equal((await app.call('POST')).status, 200);
    assert.equal(app.applied(), 3);
    assert.deepEqual(
      log.entries.map((e) => [e.method, e.path, e.status]),
      [
        ['POST', '/api/v1/programs/x/restart', 200],
        ['SVCD', 'audit/resumed', 0],
        ['POST', '/api/v1/programs/x/restart', 200],
      ],
    );
    assert.deepEqual(log.entries[1].detail, { after: 'ENOSPC' });
  } finally {
    await app.close();
  }
});

test('anonymous 401s are written up to the per-minute cap, the rest counted into one record', async () => {
  const log = new FakeLog();
  let now = 0;
  const recorder = new AuditRecorder(log, () => now, () => undefined);
  const app = await serve(recorder, () => now);
  try {
    for (let i = 0; i < ANONYMOUS_REFUSALS_PER_MINUTE + 5; i++) {
      now += 100;
      assert.equal((await app.call('POST', 'Bearer wrong')).status, 401);
    }
    assert.equal(log.entries.length, ANONYMOUS_REFUSALS_PER_MINUTE, 'the 5 past the cap are counted, not written');
    assert.ok(log.entries.every((e) => e.actor.kind === 'anonymous' && e.status === 401));
    now += 100;
    await app.call('POST');
    const [summary, change] = log.entries.slice(-2);
    assert.equal(summary.path, 'audit/anonymous-refusals-suppressed');
    assert.deepEqual(summary.detail, { count: 5, first_ts: 100 * (ANONYMOUS_REFUSALS_PER_MINUTE + 1), last_ts: 100 * (ANONYMOUS_REFUSALS_PER_MINUTE + 5) });
    assert.equal(change.status, 200);
    now += 60_000;
    await app.call('POST', 'Bearer wrong');
    assert.equal(log.entries.at(-1)?.status, 401, 'a new minute writes refusals again');
    for (let i = 0; i < ANONYMOUS_REFUSALS_PER_MINUTE; i++) await app.call('POST', 'Bearer wrong');
    const before = log.entries.length;
    await recorder.close();
    assert.equal(log.entries.length, before + 1, 'shutdown writes the count not yet written');
    assert.deepEqual(log.entries.at(-1)?.detail, { count: 1, first_ts: now, last_ts: now });
  } finally {
    await app.close();
  }
});

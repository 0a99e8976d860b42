import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { ApiDeps } from '../../../api/deps.js';
import { REDACTED } from '../../../api/redact.js';
import { storageRouter } from '../../../api/routes/storage.js';
import type { Principal } from '../../../state/auth/principal.js';

const quarantined = [{ id: 'q1', name: 'web', reason: "program 'web': startsecs: must be >= 0", raw: '{"config":{"env":{"TOKEN":"hunter22"}}}', at: 1, moved: true }];
const health = { writable: true, problem: null, since: null, recovered_at_open: null };
const deps = {
  store: { report: () => ({ ...health, pending_intents: 0, quarantined }) },
  events: { report: () => ({ ...health, queued: 0, malformed_records: 0 }) },
} as unknown as ApiDeps;

async function get(principal: Principal): Promise<{ state: { quarantined: { raw: string }[] } }> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.principal = principal;
    await next();
  });
  app.use(storageRouter(deps).routes());
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/system/storage`);
    return (await res.json()) as { state: { quarantined: { raw: string }[] } };
  } finally {
    server.close();
  }
}

test("a quarantined record's stored text (its env values) is shown only to roles that see secrets", async () => {
  assert.equal((await get({ kind: 'secret', role: 'admin' })).state.quarantined[0].raw, quarantined[0].raw);
  assert.equal((await get({ kind: 'token', role: 'viewer', id: 't', name: 'v' })).state.quarantined[0].raw, REDACTED);
  assert.equal((await get({ kind: 'token', role: 'operator', id: 't', name: 'o' })).state.quarantined[0].raw, REDACTED);
});

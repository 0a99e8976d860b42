import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { ApiDeps } from '../../../api/deps.js';
import { otaRouter } from '../../../api/routes/ota.js';
import type { Principal } from '../../../state/auth/principal.js';

// GET /api/v1/ota and /programs/{id}/ota show the artifact: its source's password and query
// values are secrets (a presigned URL), redacted below config.plaintext as in the program detail.
const ID = '11111111-2222-4333-8444-555555555555';
const SOURCE = 'https://ci:hunter22@artifacts.example/app?X-Amz-Signature=abc123&v=2';
const record = { id: ID, config: { name: 'app', command: '/opt/app', artifact: { source: SOURCE, checksum: 'a'.repeat(64), destination: '/opt/app' } } };
const deps = {
  store: { get: (id: string) => (id === ID ? record : undefined), list: () => [record] },
  observed: { get: () => ({}) },
} as unknown as ApiDeps;

async function get(principal: Principal, path: string): Promise<any> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.principal = principal;
    await next();
  });
  app.use(otaRouter(deps).routes());
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).json();
  } finally {
    server.close();
  }
}

test("the OTA routes redact the artifact source's password and query values below admin", async () => {
  const redacted = 'https://ci:[redacted]@artifacts.example/app?X-Amz-Signature=[redacted]&v=[redacted]';
  for (const principal of [{ kind: 'token', role: 'viewer', id: 't', name: 'v' }, { kind: 'token', role: 'operator', id: 't', name: 'o' }] as Principal[]) {
    assert.equal((await get(principal, '/ota'))[0].artifact.source, redacted);
    assert.equal((await get(principal, `/programs/${ID}/ota`)).artifact.source, redacted);
  }
  assert.equal((await get({ kind: 'secret', role: 'admin' }, '/ota'))[0].artifact.source, SOURCE);
  assert.equal((await get({ kind: 'secret', role: 'admin' }, `/programs/${ID}/ota`)).artifact.source, SOURCE);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiDeps } from '../../../api/deps.js';
import { otaRouter } from '../../../api/routes/ota.js';
import type { Principal } from '../../../state/auth/principal.js';
import { getAs } from '../../helpers/router-as.js';

// GET /api/v1/ota and /programs/{id}/ota show the artifact: its source's password and query
// values are secrets (a presigned URL), redacted below config.plaintext as in the program detail.
const ID = '11111111-2222-4333-8444-555555555555';
const SOURCE = 'https://ci:hunter22@artifacts.example/app?X-Amz-Signature=abc123&v=2';
const record = { id: ID, config: { name: 'app', command: '/opt/app', artifact: { source: SOURCE, checksum: 'a'.repeat(64), destination: '/opt/app' } } };
const deps = {
  store: { get: (id: string) => (id === ID ? record : undefined), list: () => [record] },
  observed: { get: () => ({}) },
} as unknown as ApiDeps;

const get = async (principal: Principal, path: string): Promise<any> => getAs(otaRouter(deps), principal, path);

test("the OTA routes redact the artifact source's password and query values below admin", async () => {
  const redacted = 'https://ci:[redacted]@artifacts.example/app?X-Amz-Signature=[redacted]&v=[redacted]';
  for (const principal of [{ kind: 'token', role: 'viewer', id: 't', name: 'v' }, { kind: 'token', role: 'operator', id: 't', name: 'o' }] as Principal[]) {
    assert.equal((await get(principal, '/ota'))[0].artifact.source, redacted);
    assert.equal((await get(principal, `/programs/${ID}/ota`)).artifact.source, redacted);
  }
  assert.equal((await get({ kind: 'secret', role: 'admin' }, '/ota'))[0].artifact.source, SOURCE);
  assert.equal((await get({ kind: 'secret', role: 'admin' }, `/programs/${ID}/ota`)).artifact.source, SOURCE);
});

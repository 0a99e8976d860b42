import { test } from 'node:test';
import assert from 'node:assert/strict';
import { licenseRouter } from '../../../api/routes/license.js';
import { noPlugins } from '../../../plugins/boot/runtime.js';
import { getAs } from '../../helpers/router-as.js';

const EXPIRES_AT = 1_900_000_000;
const claims = { license_id: '0b0e5a1c-7d4f-4c55-9a1e-0d8f1c2b3a4d', issued_to: 'Test Co', issued_at: 1_800_000_000, major_version: 0, grants: ['security'], expires_at: EXPIRES_AT, key_id: '0123456789abcdef' };
const admin = { kind: 'secret', role: 'admin' } as const;

test('a license that expires while svcd runs is reported expired from that moment', async () => {
  let now = (EXPIRES_AT - 1) * 1000;
  const router = licenseRouter({ ...noPlugins('licensed'), license: { claims, expired: false, source: '[license].key' } }, () => now);
  assert.equal(((await getAs(router, admin, '/system/license')) as { expired: boolean }).expired, false);
  now = EXPIRES_AT * 1000;
  const info = (await getAs(router, admin, '/system/license')) as { expired: boolean; expires_at: number; grants: string[] };
  assert.equal(info.expired, true);
  assert.equal(info.expires_at, EXPIRES_AT);
  assert.deepEqual(info.grants, ['security'], 'the running svcd keeps what it loaded');
});

test('a perpetual license is never expired; one kept past expiry at start stays expired', async () => {
  const { expires_at: _, ...perpetual } = claims;
  const far = () => 4_000_000_000_000;
  assert.equal(((await getAs(licenseRouter({ ...noPlugins('licensed'), license: { claims: perpetual, expired: false, source: 'SVC_LICENSE' } }, far), admin, '/system/license')) as { expired: boolean }).expired, false);
  assert.equal(((await getAs(licenseRouter({ ...noPlugins('licensed'), license: { claims, expired: true, source: 'SVC_LICENSE' } }, () => 0), admin, '/system/license')) as { expired: boolean }).expired, true);
});

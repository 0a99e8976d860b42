import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { PLUGIN_CATALOG } from '../../../plugins/host/catalog.js';
import { openPluginLibrary } from '../../../plugins/host/open-library.js';
import { SecurityNative } from '../../../plugins/security/native.js';
import { SECURITY_SO } from '../../helpers/native.js';

const lib = openPluginLibrary(SECURITY_SO, PLUGIN_CATALOG.security);
const native = new SecurityNative(lib);
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest();

test('security.so speaks ABI 1 and names itself', () => {
  assert.equal(lib.name, 'security');
  assert.match(lib.version, /^\d+\.\d+\.\d+$/);
});

test('its SHA-256 equals node:crypto for every length from 0 to 300 and some large inputs', () => {
  const lengths = [...Array(301).keys(), 1000, 4096, 65_537];
  for (const n of lengths) {
    const data = randomBytes(n);
    assert.equal(native.digest(data).toString('hex'), sha(data).toString('hex'), `length ${n}`);
  }
});

test('constant-time equality: equal, one bit off at either end, different lengths', () => {
  const a = randomBytes(32);
  assert.equal(native.equal(a, Buffer.from(a)), true);
  for (const i of [0, 15, 31]) {
    const b = Buffer.from(a);
    b[i] = (b[i] ?? 0) ^ 1;
    assert.equal(native.equal(a, b), false, `byte ${i}`);
  }
  assert.equal(native.equal(a, a.subarray(0, 31)), false);
});

test('authenticate: secret enabled, disabled, tokens with roles, anything else none', () => {
  native.load({ digest: sha('the secret'), state: 'enabled' }, [
    { id: 'tok_000000000001', role: 'viewer', digest: sha('sk-viewer') },
    { id: 'tok_000000000002', role: 'operator', digest: sha('sk-operator') },
    { id: 'tok_000000000003', role: 'admin', digest: sha('sk-admin') },
  ]);
  assert.deepEqual(native.authenticate('the secret'), { kind: 'secret' });
  assert.deepEqual(native.authenticate('sk-viewer'), { kind: 'token', id: 'tok_000000000001', role: 'viewer' });
  assert.deepEqual(native.authenticate('sk-operator'), { kind: 'token', id: 'tok_000000000002', role: 'operator' });
  assert.deepEqual(native.authenticate('sk-admin'), { kind: 'token', id: 'tok_000000000003', role: 'admin' });
  for (const wrong of ['', 'sk-admin ', 'sk-admi', 'the secreT', 'é🔑']) assert.deepEqual(native.authenticate(wrong), { kind: 'none' }, wrong);
  native.load({ digest: sha('the secret'), state: 'disabled' }, [{ id: 'tok_000000000003', role: 'admin', digest: sha('sk-new') }]);
  assert.deepEqual(native.authenticate('the secret'), { kind: 'secret_disabled' });
  assert.deepEqual(native.authenticate('sk-admin'), { kind: 'none' }, 'a reload drops the old secret at once');
  assert.deepEqual(native.authenticate('sk-new'), { kind: 'token', id: 'tok_000000000003', role: 'admin' });
});

test('the plugin refuses a table entry it cannot hold', () => {
  assert.throws(() => native.load({ digest: sha('s'), state: 'enabled' }, [{ id: 'x'.repeat(64), role: 'admin', digest: sha('a') }]), /refused token/);
});

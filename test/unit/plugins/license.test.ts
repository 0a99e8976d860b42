import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { decodeLicense, encodeLicense } from '../../../plugins/license/license-key.js';
import { issueLicense } from '../../../plugins/license/issue.js';
import { keyId, parsePublicKeys, publicKeyLine } from '../../../plugins/license/keys.js';
import { LicenseError } from '../../../plugins/license/license-error.js';
import { compareVersions } from '../../../plugins/license/semver.js';
import { releaseKey } from '../../../plugins/license/trusted-keys.js';
import { verifyLicense } from '../../../plugins/license/verify.js';
import { featuresOf, KNOWN_GRANTS } from '../../../plugins/license/features.js';
import { PLUGIN_CATALOG } from '../../../plugins/host/catalog.js';

const NOW = Date.UTC(2025, 5, 1); // fixed clock: 2025-06-01
const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, trusted: { key: publicKey, id: keyId(publicKey), origin: 'test' } };
};
const signer = pair();
const issue = (o: Partial<Parameters<typeof issueLicense>[0]> = {}) =>
  issueLicense({ signingKey: signer.privateKey, issuedTo: 'ACME', grants: ['security', 'notify'], majorVersion: 1, now: NOW, ...o }).key;
const check = (key: string, o: { version?: string; retain?: boolean; now?: number } = {}) =>
  verifyLicense(key, { trusted: [releaseKey(), signer.trusted], now: o.now ?? NOW, version: o.version ?? '1.4.2', retainGrantsAfterExpiry: o.retain ?? false });
const failure = (fn: () => unknown): LicenseError => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof LicenseError, `expected a LicenseError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected verification to fail');
};

test('an issued key verifies and carries its claims', () => {
  const key = issue({ expiresAt: NOW / 1000 + 86400, minVersion: '1.0.0', maxVersion: '1.9.9' });
  assert.match(key, /^SVC1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
  const { claims, expired, signer: by } = check(key);
  assert.equal(expired, false);
  assert.equal(by.id, signer.trusted.id);
  assert.equal(claims.issued_to, 'ACME');
  assert.equal(claims.issued_at, NOW / 1000);
  assert.deepEqual(claims.grants, ['security', 'notify']);
  assert.match(claims.license_id, /^[0-9a-f-]{36}$/);
  assert.equal(claims.key_id, signer.trusted.id);
  assert.equal(check(` ${key}\n`).claims.license_id, claims.license_id, 'whitespace around a pasted key is ignored');
});

test('malformed keys say which part is wrong', () => {
  const key = issue();
  const [, body, sig] = key.split('.');
  const cases: [string, RegExp][] = [
    ['', /3 parts/],
    ['SVC1.abc', /3 parts/],
    [`SVC2.${body}.${sig}`, /unknown format 'SVC2'/],
    [`SVC1.${body}!.${sig}`, /claims part is not base64url/],
    [`SVC1.${body}.${sig?.slice(1)}`, /signature part is not 64 bytes/],
    [`SVC1.${Buffer.from('not json').toString('base64url')}.${sig}`, /not JSON/],
    [`SVC1.${Buffer.from('[1]').toString('base64url')}.${sig}`, /claims must be a JSON object/],
  ];
  for (const [text, why] of cases) {
    const err = failure(() => check(text));
    assert.equal(err.code, 'malformed', text);
    assert.match(err.message, why);
  }
});

test('claims are checked field by field, unknown claims refused', () => {
  const claims = decodeLicense(issue()).claims;
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ ...claims, license_id: 'nope' }, /license_id: must be a lowercase UUID/],
    [{ ...claims, issued_to: '' }, /issued_to: must be a string/],
    [{ ...claims, issued_at: 1.5 }, /issued_at: must be Unix seconds/],
    [{ ...claims, grants: [] }, /grants: must be a non-empty list/],
    [{ ...claims, grants: ['Security!'] }, /grants/],
    [{ ...claims, expires_at: -1 }, /expires_at/],
    [{ ...claims, expires_at: Number.MAX_SAFE_INTEGER }, /expires_at: must be Unix seconds \(a whole number from 0 to 253402300799, 9999-12-31\)/],
    [{ ...claims, issued_at: 253_402_300_800 }, /issued_at: must be Unix seconds/],
    [{ ...claims, major_version: '1' }, /major_version: must be a whole number \(the svc major version\)/],
    [{ ...claims, min_version: '1.x' }, /min_version: must be a version/],
    [{ ...claims, admin: true }, /unknown claim admin/],
  ];
  for (const [c, why] of bad) {
    // Signed properly, so only the claim check can refuse it.
    const key = encodeLicense(c as never, signer.privateKey);
    assert.match(failure(() => check(key)).message, why);
  }
});

test('an unknown signer is named; a changed claim is a bad signature', () => {
  const other = pair();
  const foreign = issueLicense({ signingKey: other.privateKey, issuedTo: 'x', grants: ['security'], majorVersion: 1, now: NOW }).key;
  const err = failure(() => check(foreign));
  assert.equal(err.code, 'untrusted_signer');
  assert.match(err.message, new RegExp(`signed by key ${other.trusted.id}`));

  const key = issue();
  const [prefix, body, sig] = key.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  const forged = `${prefix}.${Buffer.from(JSON.stringify({ ...claims, grants: ['security', 'notify', 'ui'] })).toString('base64url')}.${sig}`;
  assert.equal(failure(() => check(forged)).code, 'bad_signature');
  const flipped = `${prefix}.${body}.${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
  assert.equal(failure(() => check(flipped)).code, 'bad_signature');
});

test('the daemon version must be in the signed range and the major must match', () => {
  assert.equal(failure(() => check(issue(), { version: '2.0.0' })).code, 'major_version');
  const ranged = issue({ minVersion: '1.2.0', maxVersion: '1.5.0' });
  assert.ok(check(ranged, { version: '1.2.0' }));
  assert.ok(check(ranged, { version: '1.5.0' }));
  const low = failure(() => check(ranged, { version: '1.1.9' }));
  assert.equal(low.code, 'version_range');
  assert.match(low.message, /valid from svc 1\.2\.0, this svcd is 1\.1\.9/);
  assert.match(failure(() => check(ranged, { version: '1.5.1' })).message, /valid up to svc 1\.5\.0/);
  assert.equal(failure(() => check(ranged, { version: '1.2.0-rc.1' })).code, 'version_range', 'a prerelease sorts before its release');
  const candidates = issue({ minVersion: '1.2.0-rc.2', maxVersion: '1.2.0-rc.10' });
  assert.ok(check(candidates, { version: '1.2.0-rc.9' }), 'rc.9 is between rc.2 and rc.10');
  assert.equal(failure(() => check(candidates, { version: '1.2.0-rc.11' })).code, 'version_range');
});

test('issuing refuses a version range that no svcd of its major falls in', () => {
  assert.throws(() => issue({ minVersion: '1.5.0', maxVersion: '1.2.0' }), /^Error: min_version 1\.5\.0 is after max_version 1\.2\.0: the license would verify for no svcd$/);
  assert.throws(() => issue({ minVersion: '2.0.0' }), /^Error: min_version 2\.0\.0 is after every 1\.x version \(major_version 1\)/);
  assert.throws(() => issue({ maxVersion: '0.9.0' }), /^Error: max_version 0\.9\.0 is before every 1\.x version/);
  assert.ok(check(issue({ minVersion: '0.9.0', maxVersion: '2.0.0' }), { version: '1.0.0' }), 'a range wider than the major is fine');
  assert.ok(check(issue({ minVersion: '1.2.0', maxVersion: '1.2.0' }), { version: '1.2.0' }), 'one version');
});

test('expiry: refused unless grants are retained, then reported as expired', () => {
  const key = issue({ expiresAt: NOW / 1000 + 10 });
  assert.equal(check(key, { now: NOW + 9_999 }).expired, false);
  const err = failure(() => check(key, { now: NOW + 10_000 }));
  assert.equal(err.code, 'expired');
  assert.match(err.message, /expired at 2025-06-01T00:00:10\.000Z .*retain_grants_after_expiry/);
  assert.equal(check(key, { now: NOW + 10_000, retain: true }).expired, true);
  assert.equal(check(issue(), { now: NOW * 10 }).expired, false, 'no expires_at: perpetual');
});

test('trusted keys files: one key per line, comments allowed, errors name file:line', () => {
  const a = pair();
  const text = `# ops keys\n\n${publicKeyLine(a.publicKey, 'ops')}\n`;
  const keys = parsePublicKeys(text, 'keys.pub');
  assert.equal(keys.length, 1);
  assert.equal(keys[0]?.id, a.trusted.id);
  assert.equal(keys[0]?.origin, 'keys.pub:3');
  assert.throws(() => parsePublicKeys('ssh-ed25519 AAAA\n', 'k.pub'), /^Error: k\.pub:1: expected 'svc-license-ed25519/);
  assert.throws(() => parsePublicKeys('svc-license-ed25519 short\n', 'k.pub'), /k\.pub:1: the key must be 43 base64url/);
  assert.match(releaseKey().id, /^[0-9a-f]{16}$/);
});

test('versions order numerically, prereleases first; features come from grants', () => {
  assert.ok(compareVersions('1.10.0', '1.9.9') > 0);
  assert.ok(compareVersions('1.0.0-rc.1', '1.0.0') < 0);
  // SemVer 2.0 precedence between prereleases: numeric identifiers as numbers, fewer first.
  assert.ok(compareVersions('1.0.0-rc.10', '1.0.0-rc.2') > 0, 'rc.10 is after rc.2');
  assert.ok(compareVersions('1.0.0-rc', '1.0.0-rc.1') < 0);
  assert.ok(compareVersions('1.0.0-1', '1.0.0-alpha') < 0, 'numeric identifiers sort below alphanumeric ones');
  assert.ok(compareVersions('1.0.0-alpha.beta', '1.0.0-beta') < 0);
  assert.equal(compareVersions('2.3.4', '2.3.4'), 0);
  assert.deepEqual(featuresOf(['security', 'ui', 'unknown']), ['access_tokens', 'audit_log', 'dashboard_extensions', 'rbac']);
  // svc license issue warns about a grant outside this list: it must be every plugin's grant.
  assert.deepEqual([...KNOWN_GRANTS].sort(), Object.values(PLUGIN_CATALOG).map((p) => p.grant).sort());
});

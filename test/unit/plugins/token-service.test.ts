import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLUGIN_CATALOG } from '../../../plugins/host/catalog.js';
import { openPluginLibrary } from '../../../plugins/host/open-library.js';
import { SecurityNative } from '../../../plugins/security/native.js';
import { TokenService } from '../../../plugins/security/token-service.js';
import { CorruptTokensError } from '../../../plugins/security/token-file.js';
import type { Principal } from '../../../state/auth/principal.js';
import { SvcError } from '../../../state/errors.js';
import { SECURITY_SO } from '../../helpers/native.js';

const native = new SecurityNative(openPluginLibrary(SECURITY_SO, PLUGIN_CATALOG.security));
const SECRET = 'the admin secret';
const admin: Principal = { kind: 'secret', role: 'admin' };

async function withService(fn: (svc: TokenService, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tokens-'));
  let now = 1_700_000_000_000;
  try {
    await fn(await TokenService.open({ native, dataDir: dir, authSecret: SECRET, now: () => (now += 1000) }), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const principal = (svc: TokenService, secret: string): Principal => {
  const outcome = svc.authenticate(secret);
  assert.ok(outcome.ok, `expected ${secret} to authenticate`);
  return outcome.principal;
};
const code = async (p: Promise<unknown>) => ((await p.then(() => null, (e: unknown) => e)) as SvcError | null)?.code;

test('create shows the secret once; the file holds only digests, mode 600, written atomically', () =>
  withService(async (svc, dir) => {
    const t = await svc.create(admin, { name: 'ci', role: 'operator' });
    assert.match(t.secret, /^sk-[A-Za-z0-9_-]{43}$/);
    assert.match(t.id, /^tok_[0-9a-f]{12}$/);
    assert.deepEqual(principal(svc, t.secret), { kind: 'token', id: t.id, name: 'ci', role: 'operator' });
    const text = readFileSync(join(dir, 'tokens.json'), 'utf8');
    assert.ok(!text.includes(t.secret));
    assert.ok(!text.includes(t.secret.slice(3)));
    assert.equal(statSync(join(dir, 'tokens.json')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir).sort(), ['tokens.json'], 'no temporary file left behind');
    assert.ok(!('secret' in (svc.list(admin)[0] ?? {})), 'listing never returns a secret');
    assert.ok(!('digest' in (svc.list(admin)[0] ?? {})));
  }));

test('create validates name and role (400 naming the field) and refuses a duplicate name (409)', () =>
  withService(async (svc) => {
    assert.equal(await code(svc.create(admin, { name: 'x', role: 'Admin' })), 'SVC_INVALID');
    await assert.rejects(svc.create(admin, { name: '', role: 'viewer' }), /^SvcError: name: required/);
    await assert.rejects(svc.create(admin, { name: 'a', role: 'root' }), /role: must be one of viewer, operator, admin/);
    await assert.rejects(svc.create(admin, { name: 'a', role: 'viewer', extra: 1 }), /extra: unknown field/);
    await svc.create(admin, { name: 'a', role: 'viewer' });
    assert.equal(await code(svc.create(admin, { name: 'a', role: 'admin' })), 'SVC_CONFLICT');
    await assert.rejects(svc.create(admin, { name: 'A', role: 'admin' }), /a token named 'a' already exists \(names differ in more than case\)/);
    await assert.rejects(svc.create(admin, { name: 'a ', role: 'viewer' }), /name: must not end with a space/);
    await assert.rejects(svc.create(admin, { name: 'ci  bot', role: 'viewer' }), /two spaces in a row/);
    await svc.create(admin, { name: 'ci bot', role: 'viewer' });
  }));

test('admins list all tokens, others only their own; non-admins renew only their own', () =>
  withService(async (svc) => {
    const v = await svc.create(admin, { name: 'v', role: 'viewer' });
    const o = await svc.create(admin, { name: 'o', role: 'operator' });
    const pv = principal(svc, v.secret);
    assert.deepEqual(svc.list(admin).map((t) => t.name), ['v', 'o']);
    assert.deepEqual(svc.list(pv).map((t) => t.name), ['v']);
    assert.deepEqual(svc.list(principal(svc, o.secret)).map((t) => t.name), ['o']);
    assert.equal(await code(svc.renew(pv, o.id)), 'SVC_FORBIDDEN');
    assert.equal(await code(svc.renew(pv, 'tok_000000000000')), 'SVC_FORBIDDEN', 'a missing id answers as an existing one: no probing');
    const renewed = await svc.renew(pv, v.id);
    assert.deepEqual([renewed.id, renewed.name, renewed.role], [v.id, 'v', 'viewer']);
    assert.equal(svc.authenticate(v.secret).ok, false, 'the old secret stops working at once');
    assert.equal(principal(svc, renewed.secret).role, 'viewer');
    assert.equal(await code(svc.renew(admin, 'tok_000000000000')), 'SVC_NOT_FOUND');
  }));

test('disabling the admin secret needs an admin token; revoking the last admin token re-enables it', () =>
  withService(async (svc, dir) => {
    assert.equal(await code(svc.disableSecret(admin)), 'SVC_CONFLICT');
    const a1 = await svc.create(admin, { name: 'a1', role: 'admin' });
    const a2 = await svc.create(admin, { name: 'a2', role: 'admin' });
    assert.deepEqual(await svc.disableSecret(admin), { secret_disabled: true, changed: true });
    assert.deepEqual(await svc.disableSecret(principal(svc, a1.secret)), { secret_disabled: true, changed: false });
    const refused = svc.authenticate(SECRET);
    assert.ok(!refused.ok && /admin secret is disabled/.test(refused.reason));
    assert.equal(JSON.parse(readFileSync(join(dir, 'auth_settings.json'), 'utf8')).secret_disabled, true);
    assert.equal((await svc.revoke(principal(svc, a1.secret), a2.id)).secret_reenabled, false);
    assert.equal(svc.authenticate(SECRET).ok, false);
    assert.equal((await svc.revoke(principal(svc, a1.secret), a1.id)).secret_reenabled, true);
    assert.equal(svc.authenticate(a1.secret).ok, false);
    assert.deepEqual(principal(svc, SECRET), { kind: 'secret', role: 'admin' });
    assert.equal(JSON.parse(readFileSync(join(dir, 'auth_settings.json'), 'utf8')).secret_disabled, false);
  }));

test('tokens and the secret state survive a restart', () =>
  withService(async (svc, dir) => {
    const a = await svc.create(admin, { name: 'a', role: 'admin' });
    await svc.disableSecret(admin);
    const again = await TokenService.open({ native, dataDir: dir, authSecret: SECRET, now: () => 0 });
    assert.equal(principal(again, a.secret).role, 'admin');
    assert.equal(again.authenticate(SECRET).ok, false);
  }));

test('a corrupt tokens.json refuses to open and is left untouched', () =>
  withService(async (_svc, dir) => {
    const file = join(dir, 'tokens.json');
    for (const text of ['{"version":1,"tokens":[', '{"version":2,"tokens":[]}', '{"version":1,"tokens":[{"id":"tok_1"}]}']) {
      writeFileSync(file, text);
      await assert.rejects(TokenService.open({ native, dataDir: dir, authSecret: SECRET, now: () => 0 }), (err: Error) => err instanceof CorruptTokensError && /is corrupt .*refusing to start rather than discard Access Tokens/.test(err.message));
      assert.equal(readFileSync(file, 'utf8'), text);
    }
  }));

test('a start that finds the admin secret disabled but no admin token (tokens.json moved away, or an old copy) re-enables the secret and says so: nobody is locked out', () =>
  withService(async (svc, dir) => {
    const a = await svc.create(admin, { name: 'a', role: 'admin' });
    const viewer = await svc.create(admin, { name: 'v', role: 'viewer' });
    await svc.disableSecret(admin);
    await svc.revoke(principal(svc, a.secret), a.id);
    // As the corrupt-file refusal advises: the tokens file moved away, the settings file left.
    writeFileSync(join(dir, 'auth_settings.json'), JSON.stringify({ secret_disabled: true, changed_at: 1, changed_by: a.id }));
    const again = await TokenService.open({ native, dataDir: dir, authSecret: SECRET, now: () => 1_800_000_000_000 });
    assert.deepEqual(principal(again, SECRET), { kind: 'secret', role: 'admin' });
    assert.equal(principal(again, viewer.secret).role, 'viewer');
    assert.equal(again.secretDisabled, false);
    assert.match(again.startWarnings.join('\n'), /admin secret was disabled .*but no admin Access Token exists: it is enabled again/);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'auth_settings.json'), 'utf8')), { secret_disabled: false, changed_at: 1_800_000_000, changed_by: 'automatic: no admin token at start-up' });
    const settled = await TokenService.open({ native, dataDir: dir, authSecret: SECRET, now: () => 0 });
    assert.deepEqual(settled.startWarnings, [], 'said once');
  }));

test('revoking the last admin token when auth_settings.json cannot be written leaves an admin able to authenticate (the token, or the secret)', () =>
  withService(async (svc, dir) => {
    const a = await svc.create(admin, { name: 'a', role: 'admin' });
    await svc.disableSecret(admin);
    // The settings file's temporary name taken by a directory: that one write fails (EISDIR).
    mkdirSync(join(dir, `.auth_settings.json.${process.pid}.tmp`));
    assert.equal(await code(svc.revoke(principal(svc, a.secret), a.id)), 'SVC_UNAVAILABLE');
    const anAdmin = [a.secret, SECRET].some((s) => {
      const outcome = svc.authenticate(s);
      return outcome.ok && outcome.principal.role === 'admin';
    });
    assert.ok(anAdmin, 'the token was revoked while the secret stayed disabled: nobody can administer svcd');
    // The other write failing: the secret is enabled again, the token kept, and the answer says which.
    rmSync(join(dir, `.auth_settings.json.${process.pid}.tmp`), { recursive: true });
    mkdirSync(join(dir, `.tokens.json.${process.pid}.tmp`));
    await assert.rejects(svc.revoke(principal(svc, a.secret), a.id), /cannot write .*tokens\.json \(EISDIR\); the admin secret is enabled now, but the tokens were not changed/);
    assert.equal(principal(svc, a.secret).role, 'admin');
    assert.equal(principal(svc, SECRET).role, 'admin');
  }));

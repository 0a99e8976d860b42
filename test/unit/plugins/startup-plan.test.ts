import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planStartup, type StartupFacts } from '../../../plugins/boot/plan.js';
import type { LicenseClaims } from '../../../plugins/license/claims.js';

const claims = (grants: string[]): LicenseClaims => ({ license_id: '00000000-0000-4000-8000-000000000000', issued_to: 't', issued_at: 0, major_version: 0, grants, key_id: '0123456789abcdef' });
const file = (name: string) => ({ name, file: `/root/plugins/${name}.so` });
const CATALOG = { security: { grant: 'security', exports: {} }, notify: { grant: 'notify', exports: {} }, ui: { grant: 'ui', exports: {} } };
const facts = (o: Partial<StartupFacts>): StartupFacts => ({ license: { kind: 'none' }, strict: false, authSecret: false, networkBind: false, pluginDir: '/root/plugins', present: [], catalog: CATALOG, ...o });
const valid = (grants = ['security']) => ({ kind: 'valid' as const, claims: claims(grants), expired: false, source: '[license].key' });
const invalid = { kind: 'invalid' as const, reason: 'bad signature', source: '[license].key' };
const refusal = (f: StartupFacts) => {
  const plan = planStartup(f);
  assert.ok('refuse' in plan, `expected a refusal, got ${JSON.stringify(plan)}`);
  return plan.refuse;
};
const started = (f: StartupFacts) => {
  const plan = planStartup(f);
  assert.ok(!('refuse' in plan), `expected a start, got ${JSON.stringify(plan)}`);
  return plan;
};

test('licensed startup requirement 1: security must be among the grants', () => {
  assert.match(refusal(facts({ license: valid(['notify', 'ui']), authSecret: true, present: [file('security')] })), /^licensed startup requirement 1: the license grants notify, ui but not security/);
});

test('licensed startup requirement 2: security.so must be present; a partial install fails', () => {
  assert.match(refusal(facts({ license: valid(), authSecret: true })), /^licensed startup requirement 2: the security plugin library security\.so is not in \/root\/plugins; install it/);
  assert.match(refusal(facts({ license: valid(['security', 'ui']), authSecret: true, present: [file('ui')] })), /requirement 2: .*found only ui\.so: a partial install/);
});

test('licensed startup requirement 3: auth_secret must be set', () => {
  assert.match(refusal(facts({ license: valid(), present: [file('security')] })), /^licensed startup requirement 3: \[server\]\.auth_secret must be set/);
});

test('licensed: security loads first, then granted plugins; ungranted and unknown ones are skipped with a warning', () => {
  const plan = started(facts({ license: valid(['security', 'notify']), authSecret: true, present: [file('notify'), file('security'), file('ui'), file('extra')] }));
  assert.equal(plan.mode, 'licensed');
  assert.deepEqual(plan.load.map((p) => p.name), ['security', 'notify']);
  assert.deepEqual(plan.skipped.map((s) => [s.name, s.reason]), [['ui', 'the license does not grant ui'], ['extra', 'not a plugin this svcd knows']]);
  assert.equal(plan.warnings.length, 2);
  assert.match(plan.warnings[0] ?? '', /plugin \/root\/plugins\/ui\.so not loaded: the license does not grant ui/);
});

test('an expired license with retain_grants_after_expiry keeps its grants, with a warning', () => {
  const plan = started(facts({ license: { ...valid(), expired: true }, authSecret: true, present: [file('security')] }));
  assert.equal(plan.mode, 'licensed');
  assert.match(plan.warnings.join(), /expired .* grants are kept/);
});

test('verification failure: loopback, no plugins, no auth_secret runs open without plugins and warns', () => {
  const plan = started(facts({ license: invalid }));
  assert.equal(plan.mode, 'open');
  assert.deepEqual(plan.load, []);
  assert.match(plan.warnings.join(), /license verification failed \(bad signature\); running in open mode on loopback without plugins/);
});

test('verification failure: plugins present, auth_secret, or a non-loopback bind refuse', () => {
  assert.match(refusal(facts({ license: invalid, present: [file('security')] })), /plugin libraries are present in \/root\/plugins \(security\.so\): refusing to start/);
  assert.match(refusal(facts({ license: invalid, authSecret: true })), /auth_secret is set: refusing to start; there is no fallback to open mode/);
  assert.match(refusal(facts({ license: invalid, networkBind: true })), /non-loopback address: refusing to start/);
});

test('verification failure: strict always refuses, even on plain loopback', () => {
  assert.match(refusal(facts({ license: invalid, strict: true })), /strict mode is on .*refusing to start/);
});

test('no license: plugins present are not loaded (warning); core auth or open mode as configured', () => {
  const plan = started(facts({ authSecret: true, present: [file('security')] }));
  assert.equal(plan.mode, 'secret');
  assert.deepEqual(plan.load, []);
  assert.match(plan.warnings.join(), /security\.so not loaded: no license is configured/);
  assert.equal(started(facts({})).mode, 'open');
});

test('a license that expires within 14 days is named in a start-up warning; one further off, or perpetual, is not', () => {
  const now = Date.UTC(2026, 10, 24);
  const expiring = (days: number) => ({ ...valid(), claims: { ...claims(['security']), expires_at: now / 1000 + days * 86_400 } });
  const warned = (license: StartupFacts['license']) => started(facts({ license, authSecret: true, present: [file('security')], now })).warnings;
  assert.deepEqual(warned(expiring(30)), []);
  assert.deepEqual(warned(valid()), []);
  assert.match(warned(expiring(13.5)).join('\n'), /^the license expires at 2026-12-07T12:00:00\.000Z \(in 13 days\): put a renewed key in \[license\]\.key before then/);
  assert.match(warned(expiring(0.2)).join('\n'), /\(in less than a day\)/);
});

// The spec's two start-up tables, row by row, against a real svcd and the real security.so:
// "Licensed startup requirements" and "License verification failure".
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, startDaemon, tempRoot, writeConfig } from '../../helpers/daemon.js';
import { installPlugins, licensedRoot, testSigner } from '../../helpers/license.js';
import { fixturePlugin } from '../../helpers/native.js';
import { runRefused } from '../../helpers/startup.js';

const signer = testSigner();
const SECRET = 'admin-secret';
const bearer = { authorization: `Bearer ${SECRET}` };

/** Runs svcd in a fresh root prepared by `setup`, expecting a refusal; returns the refusal line. */
async function refused(setup: (root: string) => void, env: Record<string, string> = {}): Promise<string> {
  const root = tempRoot('svc-startup-');
  try {
    setup(root);
    const run = await runRefused(root, env);
    assert.equal(run.code, 2, `expected exit 2, got ${run.code}:\n${run.stderr}`);
    assert.equal(run.refusal.split('\n').length, 1, 'one refusal line');
    return run.refusal;
  } finally {
    removeRoot(root);
  }
}

/** Starts svcd in a fresh root prepared by `setup` (which returns the config), runs `check`, stops it. */
async function starts(setup: (root: string) => string, check: (d: Awaited<ReturnType<typeof startDaemon>>) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const root = tempRoot('svc-startup-');
  const d = await startDaemon(root, { config: setup(root), env });
  try {
    await check(d);
  } finally {
    await d.stop();
    removeRoot(root);
  }
}

describe('spec: Licensed startup requirements', () => {
  test('all four hold: svcd starts, auth is required even on loopback, the license and loaded plugins are reported', () =>
    starts(
      (root) => licensedRoot(root, signer, { key: signer.issue({ grants: ['security', 'notify'], expiresAt: Math.floor(Date.now() / 1000) + 86400 }) }),
      async (d) => {
        assert.equal((await d.request('GET', '/api/v1/programs')).status, 401);
        assert.equal((await d.request('GET', '/api/v1/system/license')).status, 401, 'license info needs a valid Bearer when auth is required');
        const license = await d.request('GET', '/api/v1/system/license', undefined, bearer);
        assert.equal(license.status, 200);
        assert.deepEqual(Object.keys(license.body).slice(0, 8).sort(), ['expires_at', 'features', 'grants', 'issued_at', 'issued_to', 'license_id', 'major_version', 'plugin_versions']);
        assert.deepEqual(license.body.grants, ['security', 'notify']);
        assert.deepEqual(license.body.features, ['access_tokens', 'audit_log', 'notify_channels', 'rbac']);
        assert.deepEqual(license.body.plugin_versions, { security: '1.0.0' });
        assert.equal(license.body.major_version, 0);
        const status = await d.request('GET', '/api/v1/auth/status');
        assert.equal(status.body.mode, 'tokens');
        assert.equal(status.body.security_plugin, true);
      },
    ));

  test('requirement 1: a license without the security grant refuses to start', async () => {
    assert.match(await refused((root) => licensedRoot(root, signer, { key: signer.issue({ grants: ['notify', 'ui'] }) })), /^svcd: refusing to start: licensed startup requirement 1: the license grants notify, ui but not security/);
  });

  test('requirement 2: without security.so in $SVC_ROOT/plugins/ svcd refuses to start', async () => {
    assert.match(await refused((root) => licensedRoot(root, signer, { plugins: [] })), /licensed startup requirement 2: the security plugin library security\.so is not in .*\/plugins; install it with: svc plugins install$/);
  });

  test('a partial install (license valid, ui library present, security library missing) fails at startup', async () => {
    const line = await refused((root) => licensedRoot(root, signer, { key: signer.issue({ grants: ['security', 'ui'] }), plugins: ['ui'] }));
    assert.match(line, /licensed startup requirement 2: .*found only ui\.so: a partial install/);
  });

  test('requirement 2: a security.so that crashes while loading is refused by file name', async () => {
    const line = await refused((root) => {
      licensedRoot(root, signer, { plugins: [] });
      fixturePlugin('crash-at-load', join(root, 'plugins'), 'security');
    });
    assert.match(line, /licensed startup requirement 2: the security plugin must load: \/.*\/plugins\/security\.so: crashed while loading \(SIGSEGV\)/);
  });

  test('requirement 2: a security.so built for another ABI is refused by file name', async () => {
    const line = await refused((root) => {
      licensedRoot(root, signer, { plugins: [] });
      fixturePlugin('bad-abi', join(root, 'plugins'), 'security');
    });
    assert.match(line, /licensed startup requirement 2: .*\/plugins\/security\.so: plugin ABI 2, but this svcd speaks ABI 1/);
  });

  test('requirement 3: without auth_secret svcd refuses to start', async () => {
    assert.match(await refused((root) => licensedRoot(root, signer, { secret: null })), /licensed startup requirement 3: \[server\]\.auth_secret must be set/);
  });

  test('requirement 4: a security.so that does not export authenticate refuses to start', async () => {
    const line = await refused((root) => {
      licensedRoot(root, signer, { plugins: [] });
      fixturePlugin('no-authenticate', join(root, 'plugins'), 'security');
    });
    assert.match(line, /licensed startup requirement 4: the security plugin must export authenticate .*missing export authenticate/);
  });

  test('other plugin libraries load only after the checks, and only when granted and known: the rest is listed as not loaded', () =>
    starts(
      (root) => {
        const config = licensedRoot(root, signer, { key: signer.issue({ grants: ['security', 'ui'] }) });
        installPlugins(root, ['ui', 'extra']);
        return config;
      },
      async (d) => {
        const plugins = await d.request('GET', '/api/v1/system/plugins', undefined, bearer);
        assert.deepEqual(plugins.body.loaded.map((p: { name: string }) => p.name), ['security', 'ui']);
        assert.deepEqual(plugins.body.skipped.map((p: { name: string; reason: string }) => [p.name, p.reason]), [['extra', 'not a plugin this svcd knows']]);
        assert.ok(d.stderr.some((l) => /plugin .*\/plugins\/extra\.so not loaded/.test(l)), 'a warning names the library');
        // ui.so brings the dashboard's extension panels, each unlocked by its license feature:
        // this license grants security (tokens, audit log) and ui, not notify.
        const ui = await d.request('GET', '/api/v1/system/ui', undefined, bearer);
        assert.equal(ui.status, 200);
        assert.equal(ui.body.plugin_version, '1.0.0');
        assert.deepEqual(ui.body.panels.map((p: { id: string; min_role: string }) => [p.id, p.min_role]), [['tokens', 'admin'], ['audit', 'admin']]);
        // Any role reads it (the dashboard draws a panel for its min_role and up); it answered 403 below admin.
        const viewer = (await d.request('POST', '/api/v1/auth/tokens', { name: 'reader', role: 'viewer' }, bearer)).body.secret as string;
        assert.equal((await d.request('GET', '/api/v1/system/ui', undefined, { authorization: `Bearer ${viewer}` })).status, 200);
      },
    ));

  test('a corrupt data/tokens.json refuses to start instead of discarding tokens', async () => {
    const line = await refused((root) => {
      licensedRoot(root, signer);
      mkdirSync(join(root, 'data'), { recursive: true });
      writeFileSync(join(root, 'data', 'tokens.json'), '{"version": 1, "tokens": [');
    });
    assert.match(line, /security plugin: .*data\/tokens\.json is corrupt .*refusing to start rather than discard Access Tokens/);
  });
});

describe('spec: License verification failure', () => {
  const BAD = 'SVC1.bm90LWEta2V5.AAAA';

  test('loopback, no plugins, no auth_secret: runs in open mode without plugins and prints warnings', () =>
    starts(
      (root) => {
        const config = `[server]\nport = 0\n[license]\nkey = "${BAD}"\n`;
        writeConfig(root, config);
        return config;
      },
      async (d) => {
        assert.ok(d.stderr.some((l) => /license verification failed \(\[license\]\.key: malformed license key: .*running in open mode on loopback without plugins/.test(l)), d.stderr.join('\n'));
        assert.equal((await d.request('GET', '/api/v1/programs')).status, 200, 'open mode');
        const license = await d.request('GET', '/api/v1/system/license');
        assert.equal(license.status, 404);
        assert.match(license.body.message, /^no valid license: \[license\]\.key: malformed license key/);
        assert.equal((await d.request('GET', '/api/v1/auth/tokens')).status, 404, 'token routes answer 404 without the security plugin');
      },
    ));

  test('plugins present: refuses to start', async () => {
    const line = await refused((root) => licensedRoot(root, signer, { key: BAD, secret: null }));
    assert.match(line, /license verification failed .* plugin libraries are present in .*\/plugins \(security\.so\): refusing to start/);
  });

  test('auth_secret set: refuses to start (no fallback to open mode)', async () => {
    const line = await refused((root) => licensedRoot(root, signer, { key: BAD, plugins: [] }));
    assert.match(line, /license verification failed .*\[server\]\.auth_secret is set: refusing to start; there is no fallback to open mode/);
  });

  test('non-loopback bind: refuses to start', async () => {
    const line = await refused((root) => writeConfig(root, `[server]\nhost = "0.0.0.0"\nport = 0\n[license]\nkey = "${BAD}"\n`));
    assert.match(line, /not loopback|non-loopback/);
  });

  test('[license].strict = true: always refuses, even on plain loopback', async () => {
    const line = await refused((root) => writeConfig(root, `[server]\nport = 0\n[license]\nkey = "${BAD}"\nstrict = true\n`));
    assert.match(line, /license verification failed .*strict mode is on .*refusing to start/);
  });

  test('SVC_LICENSE_STRICT=1: always refuses, even on plain loopback', async () => {
    const line = await refused((root) => writeConfig(root, `[server]\nport = 0\n[license]\nkey = "${BAD}"\n`), { SVC_LICENSE_STRICT: '1' });
    assert.match(line, /strict mode is on/);
  });

  test('expired with retain_grants_after_expiry = false is a verification failure', async () => {
    const line = await refused((root) => licensedRoot(root, signer, { key: signer.issue({ expiresAt: Math.floor(Date.now() / 1000) - 60 }) }));
    assert.match(line, /license verification failed \(\[license\]\.key: expired: the license expired at .*\) and plugin libraries are present/);
  });

  test('expired with retain_grants_after_expiry = true keeps the grants and reports expired', () =>
    starts(
      (root) => licensedRoot(root, signer, { key: signer.issue({ expiresAt: Math.floor(Date.now() / 1000) - 60 }), extra: 'retain_grants_after_expiry = true' }),
      async (d) => {
        const license = await d.request('GET', '/api/v1/system/license', undefined, bearer);
        assert.equal(license.status, 200);
        assert.equal(license.body.expired, true);
        assert.ok(d.stderr.some((l) => /grants are kept because \[license\]\.retain_grants_after_expiry = true/.test(l)));
      },
    ));

  test('daemon version outside the signed range is a verification failure', async () => {
    const line = await refused((root) => licensedRoot(root, signer, { key: signer.issue({ maxVersion: '0.0.1' }) }));
    assert.match(line, /version out of range: the license is valid up to svc 0\.0\.1/);
  });

  test('a signer that is not trusted is a verification failure', async () => {
    const stranger = testSigner();
    const line = await refused((root) => licensedRoot(root, signer, { key: stranger.issue() }));
    assert.match(line, /untrusted signer: the license is signed by key [0-9a-f]{16}/);
  });

  test('the environment variable SVC_LICENSE overrides [license].key', () =>
    starts(
      (root) => licensedRoot(root, signer, { key: BAD }),
      async (d) => {
        const license = await d.request('GET', '/api/v1/system/license', undefined, bearer);
        assert.equal(license.status, 200);
        assert.equal(license.body.issued_to, 'Test Co');
      },
      { SVC_LICENSE: signer.issue() },
    ));
});

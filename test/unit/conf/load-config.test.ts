import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, keyLocation, loadConfig } from '../../../conf/load-config.js';
import { checkStartup } from '../../../conf/startup-checks.js';
import { bootPlugins } from '../../../plugins/boot/boot.js';
import { StartupRefusal } from '../../../plugins/boot/refusal.js';

const withConfig = (toml: string | null, fn: (root: string, file: string) => void) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-conf-'));
  const file = join(root, 'conf', 'svc.toml');
  try {
    if (toml !== null) {
      mkdirSync(join(root, 'conf'));
      writeFileSync(file, toml);
    }
    fn(root, file);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

const fails = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  assert.fail('expected a ConfigError');
};

test('a missing file means the embedded defaults, paths resolved under the root', () => {
  withConfig(null, (root) => {
    const c = loadConfig(root);
    assert.equal(c.file, null);
    assert.equal(c.server.host, '127.0.0.1');
    assert.equal(c.server.port, 9002);
    assert.equal(c.storage.events_file, join(root, 'data', 'events.db'));
    assert.equal(c.storage.events_keep_days, 30);
    assert.equal(c.storage.log_dir, join(root, 'logs'));
  });
});

test('the committed conf/svc.toml parses to exactly the embedded defaults', () => {
  const committed = readFileSync(new URL('../../../../conf/svc.toml', import.meta.url), 'utf8');
  withConfig(committed, (root) => {
    const { file: _f, ...fromFile } = loadConfig(root);
    withConfig(null, (root2) => {
      const { file: _g, ...defaults } = loadConfig(root2);
      assert.deepEqual(JSON.parse(JSON.stringify(fromFile).replaceAll(root, 'R')), JSON.parse(JSON.stringify(defaults).replaceAll(root2, 'R')));
    });
  });
});

test('an unknown key names the file, the line and the key', () => {
  withConfig('[server]\nport = 9002\nprot = 1\n', (root, file) => {
    assert.equal(fails(() => loadConfig(root)), `${file}:3: unknown key server.prot`);
  });
});

test('an unknown section is refused', () => {
  withConfig('\n[sever]\nport = 1\n', (root, file) => {
    assert.equal(fails(() => loadConfig(root)), `${file}:2: unknown section [sever]`);
  });
});

test('a wrong type or bad value names the key and line', () => {
  withConfig('[server]\nport = "9002"\n', (root, file) => assert.equal(fails(() => loadConfig(root)), `${file}:2: server.port: must be an integer`));
  withConfig('[server]\nport = 70000\n', (root, file) => assert.equal(fails(() => loadConfig(root)), `${file}:2: server.port: must be at most 65535`));
  withConfig('[storage]\nevents_keep_days = -1\n', (root, file) => assert.equal(fails(() => loadConfig(root)), `${file}:2: storage.events_keep_days: must be at least 0`));
});

test('an empty server.host is refused with the line (it crashed svcd with a TypeError)', () => {
  for (const value of ['""', '"  "']) {
    withConfig(`[server]\nport = 0\nhost = ${value}\n`, (root, file) =>
      assert.equal(fails(() => loadConfig(root)), `${file}:3: server.host: must be an address or a host name (127.0.0.1 for this host only, 0.0.0.0 for every interface)`),
    );
  }
});

test('keyLocation names the file and the line of a key, for problems found after loading', () => {
  withConfig('# c\n[server]\nport = 0\nhost = "nowhere.invalid"\n', (root, file) => {
    const config = loadConfig(root);
    assert.equal(keyLocation(config, 'server', 'host'), `${file}:4`);
    assert.equal(keyLocation(config, 'server', 'auth_secret'), file);
  });
  assert.equal(keyLocation({ file: null }, 'server', 'host'), 'embedded defaults');
});

test('a key in an inline table or a dotted key names its line; so does a sub-table of a section', () => {
  withConfig('# svc\nserver = { host = "127.0.0.1", port = 70000 }\n', (root, file) => assert.equal(fails(() => loadConfig(root)), `${file}:2: server.port: must be at most 65535`));
  withConfig('\nserver.port = -1\n', (root, file) => assert.equal(fails(() => loadConfig(root)), `${file}:2: server.port: must be at least 0`));
  withConfig('[server]\nport = 0\n\n[server.tls]\ncert = "x"\n', (root, file) => assert.equal(fails(() => loadConfig(root)), `${file}:4: unknown key server.tls`));
});

test('a TOML syntax error gives path:line:col:', () => {
  withConfig('[server]\nport = = 1\n', (root, file) => assert.match(fails(() => loadConfig(root)), new RegExp(`^${file}:2:\\d+: `)));
});

test('a non-loopback bind without auth_secret refuses to start', () => {
  withConfig('[server]\nhost = "0.0.0.0"\n', (root) => {
    assert.match(fails(() => checkStartup(loadConfig(root))), /not loopback and server.auth_secret is empty/);
  });
  withConfig('[server]\nhost = "0.0.0.0"\nauth_secret = "s3cret"\n', (root) => {
    assert.ok(Array.isArray(checkStartup(loadConfig(root))));
  });
});

test('a short auth_secret on a non-loopback bind starts with a warning (nothing slows guessing); on loopback or a long one, none', () => {
  withConfig('[server]\nhost = "0.0.0.0"\nauth_secret = "s3cret"\n', (root, file) => {
    chmodSync(file, 0o600);
    assert.deepEqual(checkStartup(loadConfig(root)), ['server.auth_secret is 6 characters and svcd listens on 0.0.0.0, off loopback: anyone who reaches the port may try secrets as fast as svcd answers; use 16 or more random characters (openssl rand -hex 16)']);
  });
  withConfig(`[server]\nhost = "0.0.0.0"\nauth_secret = "${'k'.repeat(16)}"\n`, (root, file) => {
    chmodSync(file, 0o600);
    assert.deepEqual(checkStartup(loadConfig(root)), []);
  });
  withConfig('[server]\nauth_secret = "s3cret"\n', (root, file) => {
    chmodSync(file, 0o600);
    assert.deepEqual(checkStartup(loadConfig(root)), []);
  });
});

test('an auth_secret that no Bearer credential can carry is refused, naming the key and the reason', () => {
  const cases: [string, RegExp][] = [
    ['" padded "', /svc\.toml:2: server\.auth_secret: must not begin or end with a space/],
    ['"   "', /server\.auth_secret: must not begin or end with a space/],
    ['"tab\\tsecret"', /server\.auth_secret: must not hold control characters/],
    [`"${'x'.repeat(4097)}"`, /server\.auth_secret: must be at most 4096 characters/],
  ];
  for (const [value, message] of cases) {
    withConfig(`[server]\nauth_secret = ${value}\n`, (root) => assert.match(fails(() => loadConfig(root)), message));
  }
  withConfig('[server]\nauth_secret = "a pass phrase with spaces"\n', (root) => assert.equal(loadConfig(root).server.auth_secret, 'a pass phrase with spaces'));
});

test('a license key that cannot verify: warns on plain loopback, refuses when strict or with licensed intent', async () => {
  const boot = (root: string, env: NodeJS.ProcessEnv) => bootPlugins({ config: loadConfig(root), env, version: '0.1.0', now: () => 0 });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    assert.ok(err instanceof StartupRefusal, 'expected a StartupRefusal');
    return err.message;
  };
  const root = mkdtempSync(join(tmpdir(), 'svc-conf-'));
  try {
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'svc.toml'), '[license]\nkey = "abc"\n');
    assert.match((await boot(root, {})).warnings.join(), /malformed license key.*running in open mode/);
    assert.match(await refusal(boot(root, { SVC_LICENSE_STRICT: '1' })), /strict mode is on.*refusing to start/);
    writeFileSync(join(root, 'conf', 'svc.toml'), '[server]\nauth_secret = "x"\n');
    assert.match(await refusal(boot(root, { SVC_LICENSE: 'abc' })), /auth_secret is set: refusing to start; there is no fallback to open mode/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('without the security plugin, a disabled admin secret and stored Access Tokens are warned about at start', async () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-conf-'));
  try {
    mkdirSync(join(root, 'conf'));
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'conf', 'svc.toml'), '[server]\nauth_secret = "a long enough secret"\n');
    const warnings = async () => (await bootPlugins({ config: loadConfig(root), env: {}, version: '0.1.0', now: () => 0 })).warnings.join('\n');
    assert.equal(await warnings(), '', 'nothing left behind, nothing said');
    writeFileSync(join(root, 'data', 'auth_settings.json'), JSON.stringify({ secret_disabled: true, changed_at: 1, changed_by: 'tok_0123456789ab' }));
    const digest = 'a'.repeat(64);
    writeFileSync(join(root, 'data', 'tokens.json'), JSON.stringify({ version: 1, tokens: [{ id: 'tok_0123456789ab', name: 'ci', role: 'admin', digest, created_at: 1, created_by: 'secret' }] }));
    const said = await warnings();
    assert.match(said, /the admin secret was disabled .*auth_settings\.json.* \[server\]\.auth_secret is accepted again/);
    assert.match(said, /1 Access Token in .*tokens\.json is refused: the security plugin is not loaded/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, removeRoot, startDaemon, tempRoot } from '../../helpers/daemon.js';
import { artifactServer, opensslAvailable, selfSignedCert } from '../../helpers/artifact-server.js';
import { binary, sha256 } from '../../helpers/ota-binaries.js';

test('https with a private CA: [ota] ca_file trusts a self-signed certificate made in the test', async (t) => {
  if (!opensslAvailable()) {
    if (process.env.CI) assert.fail('openssl is required under CI: run scripts/install-system-deps.sh');
    return t.skip('openssl is not installed (scripts/install-system-deps.sh installs it)');
  }
  const root = tempRoot();
  const tls = selfSignedCert(root);
  const server = await artifactServer({ tls });
  const d = await startDaemon(root, { config: `[server]\nport = 0\n[ota]\nca_file = "${tls.certFile}"\n` });
  try {
    const dir = join(root, 'opt');
    mkdirSync(dir);
    const dest = join(dir, 'app');
    const v1 = binary('v1');
    const v2 = binary('v2');
    writeFileSync(dest, v1, { mode: 0o755 });
    server.routes.set('/v2', { body: v2 });
    const res = await d.request('POST', '/api/v1/programs', {
      name: 'tls-app',
      command: dest,
      startsecs: 1,
      artifact: { source: server.url('/v2'), checksum: sha256(v2), destination: dest, verify_timeout: 10 },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = res.body.id as string;
    const done = await eventually(async () => {
      const o = (await d.request('GET', `/api/v1/programs/${id}`)).body.state.ota;
      return o?.phase === 'idle' && o.last ? o : null;
    }, 20_000, 'the update');
    assert.equal(done.last.result, 'applied', JSON.stringify(done));
    assert.equal(readFileSync(dest, 'utf8'), v2);
    assert.ok(server.url('/v2').startsWith('https://'));
  } finally {
    await d.stop();
    await server.close();
    removeRoot(root);
  }
});

test('an unreadable ca_file refuses start-up with the key and its line named', async () => {
  const root = tempRoot();
  try {
    await assert.rejects(startDaemon(root, { config: `[server]\nport = 0\n[ota]\nca_file = "missing.pem"\n` }), /conf\/svc\.toml:4: ota\.ca_file: cannot read .*missing\.pem: ENOENT/);
  } finally {
    removeRoot(root);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../conf/load-config.js';
import { resolveBindHost } from '../../../conf/loopback.js';
import { isLoopbackAddress } from '../../../state/loopback.js';
import { checkStartup } from '../../../conf/startup-checks.js';

function withConfig(toml: string, fn: (root: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'svc-loopback-'));
  try {
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'svc.toml'), toml);
    fn(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fails = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  return assert.fail('expected a ConfigError');
};

test('loopback is judged on the address, never on a name that starts with 127.', () => {
  for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(ip), true, ip);
  for (const host of ['127.example.com', '127.0.0.1.nip.io', 'localhost', '0.0.0.0', '10.0.0.1', '::', '::ffff:10.0.0.1', '128.0.0.1']) assert.equal(isLoopbackAddress(host), false, host);
});

test('start-up checks use the address the host resolves to', () => {
  withConfig('[server]\nhost = "127.example.com"\n', (root) => {
    assert.match(fails(() => checkStartup(loadConfig(root))), /server.host = "127.example.com" is not loopback/);
    assert.match(fails(() => checkStartup(loadConfig(root), '93.184.215.14')), /server.host = "127.example.com" \(resolves to 93.184.215.14\) is not loopback/);
  });
  withConfig('[server]\nhost = "localhost"\n', (root) => {
    assert.ok(Array.isArray(checkStartup(loadConfig(root), '::1')));
    assert.match(fails(() => checkStartup(loadConfig(root), '192.168.1.9')), /\(resolves to 192.168.1.9\) is not loopback/);
  });
});

test('resolveBindHost keeps literals and resolves names like listen does', async () => {
  assert.equal(await resolveBindHost('[::1]'), '::1');
  assert.equal(await resolveBindHost('127.0.0.2'), '127.0.0.2');
  assert.equal(isLoopbackAddress(await resolveBindHost('localhost')), true);
});

test('resolveBindHost refuses a host with no address ([] is empty once unbracketed)', async () => {
  await assert.rejects(resolveBindHost('[]'), (err: NodeJS.ErrnoException) => err.code === 'ENOTFOUND');
});

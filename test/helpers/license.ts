import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicKeyLine } from '../../plugins/license/keys.js';
import { issueLicense, type IssueRequest } from '../../plugins/license/issue.js';
import { writeConfig } from './daemon.js';
import { ISOLATION_SO, SECURITY_SO } from './native.js';

/** A signing key made for one test, and the trusted-keys line for it. */
export interface TestSigner {
  signingKey: KeyObject;
  publicLine: string;
  issue(overrides?: Partial<Omit<IssueRequest, 'signingKey'>>): string;
}

export function testSigner(): TestSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKey: privateKey,
    publicLine: publicKeyLine(publicKey, 'test'),
    issue: (o = {}) => issueLicense({ signingKey: privateKey, issuedTo: 'Test Co', grants: ['security'], majorVersion: 0, now: Date.now(), ...o }).key,
  };
}

/**
 * Prepares an installation root for a licensed svcd: the signer's public key trusted, the
 * license in conf/svc.toml (unless `key` is null), and the real security.so installed unless
 * `plugins` says otherwise. Returns the config text written.
 */
export function licensedRoot(root: string, signer: TestSigner, opts: { key?: string | null; secret?: string | null; extra?: string; plugins?: string[] } = {}): string {
  writeFileSync(join(root, 'trusted.pub'), `${signer.publicLine}\n`);
  const key = opts.key === undefined ? signer.issue() : opts.key;
  const secret = opts.secret === undefined ? 'admin-secret' : opts.secret;
  const config = [
    '[server]',
    'port = 0',
    ...(secret ? [`auth_secret = "${secret}"`] : []),
    '[license]',
    ...(key ? [`key = "${key}"`] : []),
    'trusted_keys = "trusted.pub"',
    opts.extra ?? '',
  ].join('\n');
  writeConfig(root, `${config}\n`);
  installPlugins(root, opts.plugins ?? ['security']);
  return config;
}

/**
 * Copies built plugins into <root>/plugins/: `isolation` is the real isolation.so; any other
 * name gets the built security.so under that name (`security` normally; other names make a
 * library that is refused for its name).
 */
export function installPlugins(root: string, names: string[]): void {
  if (names.length === 0) return;
  mkdirSync(join(root, 'plugins'), { recursive: true });
  for (const name of names) copyFileSync(name === 'isolation' ? ISOLATION_SO : SECURITY_SO, join(root, 'plugins', `${name}.so`));
}

// svc token with the security plugin, as a token holder uses it from the command line.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';
import { licensedRoot, testSigner } from '../helpers/license.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 'token-cli-admin-secret';
let d: RunningDaemon;

before(async () => {
  const root = tempRoot('svc-token-cli-');
  d = await startDaemon(root, { config: licensedRoot(root, testSigner(), { secret: SECRET }) });
});

after(async () => {
  await d.stop();
  removeRoot(d.root);
});

test('renewing the token svc login saved saves the new secret, so the next command is not refused; another token leaves it alone', async () => {
  const asAdmin = { SVC_URL: d.url, SVC_TOKEN: SECRET };
  const mine = JSON.parse((await runCli(['--json', 'token', 'create', 'laptop', '--role', 'viewer'], asAdmin)).stdout) as { id: string; secret: string };
  const user = { SVC_URL: d.url, XDG_CONFIG_HOME: join(d.root, 'home-config') };
  assert.equal((await runCli(['login', '--token', mine.secret], user)).code, 0);
  const file = join(user.XDG_CONFIG_HOME, 'svc', 'credentials.json');

  const renew = await runCli(['token', 'renew', 'laptop'], user);
  assert.equal(renew.code, 0, renew.stderr);
  const secret = /\n {2}(sk-\S+)\n/.exec(renew.stdout)?.[1] ?? '';
  assert.match(renew.stdout, /it was the credential svc login saved for http:\/\/127\.0\.0\.1:\d+: .*credentials\.json now holds the new secret/);
  assert.equal(JSON.parse(readFileSync(file, 'utf8'))[d.url], secret);
  const list = await runCli(['token', 'list'], user);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /laptop/);

  // An admin renewing someone else's token with a saved admin credential keeps its own credential.
  assert.equal((await runCli(['login', '--token', SECRET], user)).code, 0);
  const other = await runCli(['token', 'renew', 'laptop'], user);
  assert.equal(other.code, 0, other.stderr);
  assert.doesNotMatch(other.stdout, /svc login saved/);
  assert.equal(JSON.parse(readFileSync(file, 'utf8'))[d.url], SECRET);
});

test('svc token revoke and renew find a token by its name in any case, as svcd keeps names unique regardless of case (CI answered "no token" for ci)', async () => {
  const asAdmin = { SVC_URL: d.url, SVC_TOKEN: SECRET };
  const made = JSON.parse((await runCli(['--json', 'token', 'create', 'ci-deploy', '--role', 'operator'], asAdmin)).stdout) as { id: string };
  const renew = await runCli(['--json', 'token', 'renew', 'CI-Deploy'], asAdmin);
  assert.equal(renew.code, 0, renew.stderr);
  assert.equal((JSON.parse(renew.stdout) as { id: string }).id, made.id);
  const revoke = await runCli(['token', 'revoke', 'CI-DEPLOY'], asAdmin);
  assert.equal(revoke.code, 0, revoke.stderr);
  assert.doesNotMatch((await runCli(['token', 'list'], asAdmin)).stdout, /ci-deploy/);
});

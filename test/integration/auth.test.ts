import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { useDaemon, startDaemon, removeRoot, tempRoot } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 's3cret-admin';
const d = useDaemon({ config: `[server]\nport = 0\nauth_secret = "${SECRET}"\n` });
const bearer = { authorization: `Bearer ${SECRET}` };

test('with auth_secret every API route needs the Bearer secret; /health and /auth/status do not', async () => {
  const none = await d.request('GET', '/api/v1/programs');
  assert.equal(none.status, 401);
  assert.deepEqual(none.body, { status: 'error', message: 'authentication required: send Authorization: Bearer <secret>' });
  assert.equal((await d.request('GET', '/api/v1/programs', undefined, { authorization: 'Bearer wrong' })).status, 401);
  assert.equal((await d.request('GET', '/api/v1/programs', undefined, bearer)).status, 200);
  assert.equal((await d.request('GET', '/metrics')).status, 401);
  assert.equal((await d.request('GET', '/health')).status, 200);
  const status = await d.request('GET', '/api/v1/auth/status');
  assert.deepEqual(status.body, { auth_required: true, mode: 'secret', authenticated: false, security_plugin: false });
  assert.equal((await d.request('GET', '/api/v1/auth/status', undefined, bearer)).body.authenticated, true);
});

test('login confirms the credential (401 otherwise); logout answers 200', async () => {
  assert.equal((await d.request('POST', '/api/v1/auth/login', undefined, { authorization: 'Bearer nope' })).status, 401);
  assert.equal((await d.request('POST', '/api/v1/auth/login', undefined, bearer)).body.authenticated, true);
  assert.equal((await d.request('POST', '/api/v1/auth/logout', undefined, bearer)).status, 200);
});

test('svc login saves the credential (mode 600) for later commands; svc logout forgets it', async () => {
  const home = join(d.root, 'cfg');
  const env = { SVC_URL: d.url, XDG_CONFIG_HOME: home };
  const denied = await runCli(['list'], env);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /authentication required.*\(use --token or SVC_TOKEN\)/);
  assert.equal((await runCli(['login', '--token', 'wrong'], env)).code, 1);
  const login = await runCli(['login', '--token', SECRET], env);
  assert.equal(login.code, 0, login.stderr);
  assert.equal(statSync(join(home, 'svc', 'credentials.json')).mode & 0o777, 0o600);
  assert.equal((await runCli(['list'], env)).code, 0, 'the saved credential is used');
  assert.equal((await runCli(['logout'], env)).code, 0);
  assert.equal((await runCli(['list'], env)).code, 1);
});

test('without auth_secret the auth routes do not exist (404)', async () => {
  const open = await startDaemon(tempRoot());
  try {
    assert.equal((await open.request('GET', '/api/v1/auth/status')).status, 404);
    assert.equal((await open.request('POST', '/api/v1/auth/login')).status, 404);
  } finally {
    await open.stop();
    removeRoot(open.root);
  }
});

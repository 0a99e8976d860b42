import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
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

test('svc login is saved for the daemon, however its address is written; a saved credential svcd refuses is named as such', async () => {
  const home = join(d.root, 'cfg-forms');
  const hostPort = d.url.replace(/^http:\/\//, '');
  const login = await runCli(['login', '--token', SECRET], { SVC_URL: hostPort, XDG_CONFIG_HOME: home });
  assert.equal(login.code, 0, login.stderr);
  // host:port, http://host:port and a trailing slash are one daemon.
  for (const url of [hostPort, d.url, `${d.url}/`]) {
    const res = await runCli(['list'], { SVC_URL: url, XDG_CONFIG_HOME: home });
    assert.equal(res.code, 0, `${url}: ${res.stderr}`);
  }
  // The secret changed since: the credential at fault is the saved one, which the user never typed.
  const file = join(home, 'svc', 'credentials.json');
  writeFileSync(file, JSON.stringify({ [d.url]: 'an-old-secret' }));
  const stale = await runCli(['list'], { SVC_URL: `${d.url}/`, XDG_CONFIG_HOME: home });
  assert.equal(stale.code, 1);
  assert.equal(stale.stderr, `svc: authentication failed: the Bearer credential is not the admin secret (the credential svc login saved for ${d.url}/ in ${file}: run svc login again, or use --token or SVC_TOKEN)\n`);
  const logout = await runCli(['logout'], { SVC_URL: hostPort, XDG_CONFIG_HOME: home });
  assert.equal(logout.code, 0, logout.stderr);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {}, 'svc logout forgets it under any spelling of the address');
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

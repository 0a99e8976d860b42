// Access Tokens, the admin secret state and the audit log through the CLI and the API, as
// docs/security.md walks a new user through them, against a real svcd and security.so.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { eventually, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { runCli } from '../../helpers/cli.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';

const SECRET = 'walkthrough-secret';
let d: RunningDaemon;
let config = '';
const cli = (args: string[], token?: string) => runCli(args, { SVC_URL: d.url, SVC_TOKEN: token ?? '', XDG_CONFIG_HOME: join(d.root, 'home') });
const secretOf = (stdout: string) => /\b(sk-[A-Za-z0-9_-]{43})\b/.exec(stdout)?.[1] ?? assert.fail(`no secret in: ${stdout}`);

describe('Access Tokens, roles and the audit log (CLI and API)', () => {
  let operator = '';
  let viewer = '';
  let web = '';
  before(async () => {
    const root = tempRoot('svc-tokens-');
    config = licensedRoot(root, testSigner(), { secret: SECRET });
    d = await startDaemon(root, { config });
  });
  after(async () => {
    await d.stop();
    removeRoot(d.root);
  });

  test('svc token create prints the secret once; svc token list shows no secret', async () => {
    const op = await cli(['token', 'create', 'deploy-bot', '--role', 'operator'], SECRET);
    assert.equal(op.code, 0, op.stderr);
    assert.match(op.stdout, /created token tok_[0-9a-f]{12} \(deploy-bot, operator\)/);
    operator = secretOf(op.stdout);
    viewer = secretOf((await cli(['token', 'create', 'dashboard', '--role', 'viewer'], SECRET)).stdout);
    const list = await cli(['token', 'list'], SECRET);
    assert.match(list.stdout, /deploy-bot\s+operator/);
    assert.match(list.stdout, /dashboard\s+viewer/);
    assert.ok(!list.stdout.includes('sk-'));
    const own = await cli(['token', 'list', '--json'], viewer);
    assert.deepEqual(JSON.parse(own.stdout).map((t: { name: string }) => t.name), ['dashboard'], 'a viewer lists only its own token');
    // A role that does not exist: svc says so itself (exit 2, nothing sent); svcd refuses it too (400, audited below).
    const bad = await cli(['token', 'create', 'x', '--role', 'root'], SECRET);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /'--role <role>' argument 'root' is invalid\. Allowed choices are viewer, operator, admin/);
    const refused = await d.request('POST', '/api/v1/auth/tokens', { name: 'x', role: 'root' }, { authorization: `Bearer ${SECRET}` });
    assert.equal(refused.status, 400);
    assert.match((refused.body as { message: string }).message, /role: must be one of viewer, operator, admin/);
  });

  test('svc login works with a token; an operator restarts a program but cannot create a token', async () => {
    const login = await cli(['login', '--token', operator]);
    assert.equal(login.code, 0, login.stderr);
    const add = await cli(['add', 'web', '--env', 'DB_PASSWORD=hunter2-hunter2', '--', 'sh', '-c', 'echo "db password is $DB_PASSWORD"; exec sleep 600'], operator);
    assert.equal(add.code, 0, add.stderr);
    web = /\(([0-9a-f-]{36})\)/.exec(add.stdout)?.[1] ?? assert.fail(add.stdout);
    const before = (await d.request('GET', `/api/v1/programs/${web}`, undefined, { authorization: `Bearer ${SECRET}` })).body.pid as number | null;
    const restart = await runCli(['restart', 'web'], { SVC_URL: d.url, XDG_CONFIG_HOME: join(d.root, 'home') }); // the saved login
    assert.equal(restart.code, 0, restart.stderr);
    await eventually(async () => {
      const pid = (await d.request('GET', `/api/v1/programs/${web}`, undefined, { authorization: `Bearer ${SECRET}` })).body.pid;
      return pid && pid !== before;
    }, 10_000, 'a new pid after restart');
    const create = await cli(['token', 'create', 'sneaky', '--role', 'admin'], operator);
    assert.equal(create.code, 1);
    assert.match(create.stderr, /forbidden: role operator does not have permission token\.manage \(needs admin\)/);
  });

  test('a viewer reads logs and config with secrets redacted, and cannot restart', async () => {
    await eventually(async () => (await cli(['logs', 'web', '-n', '5'], SECRET)).stdout.includes('hunter2-hunter2'), 10_000, 'the log line');
    const logs = await cli(['logs', 'web', '-n', '5'], viewer);
    assert.match(logs.stdout, /db password is \[redacted\]/);
    assert.ok(!logs.stdout.includes('hunter2-hunter2'));
    const info = await cli(['info', 'web'], viewer);
    assert.match(info.stdout, /"DB_PASSWORD":"\[redacted\]"/);
    const restart = await cli(['restart', 'web'], viewer);
    assert.equal(restart.code, 1);
    assert.match(restart.stderr, /forbidden: role viewer/);
  });

  test('WS credentials: Sec-WebSocket-Protocol (bearer. and base64url.bearer.) and ?token=; svc.v1 is selected', async () => {
    const base = `${d.url.replace(/^http/, 'ws')}/ws?id=${web}`;
    // Authorized sockets stay open (watched for 1 s); for a refused one svcd's close is awaited
    // (30 s at most), so a slow machine cannot make a late refusal look like an open socket.
    const open = (url: string, protocols?: string[], refused = false) =>
      new Promise<{ protocol: string; code: number | null }>((resolve) => {
        const ws = new WebSocket(url, protocols);
        ws.on('error', () => undefined);
        ws.once('open', () => {
          const protocol = ws.protocol;
          const timer = setTimeout(() => (ws.close(), resolve({ protocol, code: null })), refused ? 30_000 : 1000);
          ws.once('close', (code) => (clearTimeout(timer), resolve({ protocol, code })));
        });
        ws.once('unexpected-response', () => resolve({ protocol: '', code: -1 }));
      });
    assert.deepEqual(await open(base, ['svc.v1', `bearer.${viewer}`]), { protocol: 'svc.v1', code: null });
    assert.deepEqual(await open(base, ['svc.v1', `base64url.bearer.${Buffer.from(SECRET).toString('base64url')}`]), { protocol: 'svc.v1', code: null });
    assert.deepEqual(await open(`${base}&token=${encodeURIComponent(operator)}`), { protocol: '', code: null });
    assert.equal((await open(base, ['svc.v1', 'bearer.sk-wrong'], true)).code, 4401);
  });

  test('renew keeps id, name and role and invalidates the old secret at once', async () => {
    const renew = await cli(['token', 'renew', 'dashboard'], viewer);
    assert.equal(renew.code, 0, renew.stderr);
    assert.match(renew.stdout, /renewed token tok_[0-9a-f]{12} \(dashboard, viewer\)/);
    const fresh = secretOf(renew.stdout);
    assert.equal((await cli(['list'], viewer)).code, 1, 'the old secret is refused');
    assert.equal((await cli(['list'], fresh)).code, 0);
    viewer = fresh;
  });

  test('svc auth disable-secret needs an admin token; revoking the last admin token re-enables the secret', async () => {
    const refused = await cli(['auth', 'disable-secret'], SECRET);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /no admin Access Token exists/);
    const admin = secretOf((await cli(['token', 'create', 'root', '--role', 'admin'], SECRET)).stdout);
    assert.equal((await cli(['auth', 'disable-secret'], admin)).code, 0);
    const denied = await cli(['list'], SECRET);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /the admin secret is disabled/);
    assert.equal(JSON.parse(readFileSync(join(d.root, 'data', 'auth_settings.json'), 'utf8')).secret_disabled, true);
    const revoke = await cli(['token', 'revoke', 'root'], admin);
    assert.match(revoke.stdout, /it was the last admin token, so the admin secret works again/);
    assert.equal((await cli(['list'], SECRET)).code, 0);
  });

  test('tokens survive a daemon restart', async () => {
    await d.stop();
    d = await startDaemon(d.root, { config });
    assert.equal((await cli(['list'], viewer)).code, 0);
    assert.equal((await cli(['list'], operator)).code, 0);
  });

  test('the audit log records who did what, with filters; svc audit --verify passes, then fails after one byte changes', async () => {
    const records = (await d.request('GET', '/api/v1/audit?actor=secret&path=/api/v1/auth/tokens&method=post', undefined, { authorization: `Bearer ${SECRET}` })).body as { actor: { kind: string }; status: number; detail?: { name?: string } }[];
    assert.deepEqual(records.map((r) => [r.actor.kind, r.status, r.detail?.name]).slice(0, 3), [['secret', 201, 'deploy-bot'], ['secret', 201, 'dashboard'], ['secret', 400, undefined]]);
    const forbidden = (await d.request('GET', '/api/v1/audit?status=403', undefined, { authorization: `Bearer ${SECRET}` })).body as { actor: { name: string; role: string }; path: string }[];
    assert.ok(forbidden.some((r) => r.actor.role === 'operator' && r.path === '/api/v1/auth/tokens'), 'the refused token creation is recorded with its actor');
    const audit = await cli(['audit', '--actor', 'secret', '--limit', '2'], SECRET);
    assert.match(audit.stdout, /POST \/api\/v1\/auth\/tokens\s+201/);
    assert.equal((await cli(['audit'], viewer)).code, 1, 'admin only');

    const ok = await cli(['audit', '--verify'], SECRET);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /verified: \d+ records, chain and head intact/);
    const file = join(d.root, 'data', 'audit.log');
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf('"status":201');
    writeFileSync(file, `${text.slice(0, at)}"status":204${text.slice(at + '"status":201'.length)}`);
    const failed = await cli(['audit', '--verify'], SECRET);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /FAILED verification: line 2 \(record 2\): its prev digest does not match line 1/);
    const offline = await runCli(['audit', '--verify', '--root', d.root]);
    assert.equal(offline.code, 1);
    assert.match(offline.stderr, /FAILED verification/);
    // A --root that holds no audit log (a typo, or not an installation root) is not "verified".
    const nowhere = await runCli(['audit', '--verify', '--root', join(d.root, 'no-such-root')]);
    assert.equal(nowhere.code, 1, nowhere.stdout);
    assert.match(nowhere.stderr, /^svc: no audit log in .*no-such-root\/data \(neither audit\.log nor audit\.head\): is --root the installation root\?\n$/);
  });

  test('svc plugins list and svc license show report what the daemon loaded', async () => {
    const plugins = await cli(['plugins', 'list'], viewer);
    assert.match(plugins.stdout, /security\s+1\.0\.0\s+loaded\s+.*\/plugins\/security\.so/);
    const license = await cli(['license', 'show'], viewer);
    assert.match(license.stdout, /issued_to\s+Test Co/);
    assert.match(license.stdout, /plugins\s+security 1\.0\.0/);
  });
});

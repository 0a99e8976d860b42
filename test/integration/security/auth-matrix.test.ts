// Every route of the route table x {no credential, wrong, viewer, operator, admin, admin secret,
// disabled admin secret} against a real svcd with the real security.so: the status each gets,
// and what viewers and operators see of secrets. Generated from api/route-table.ts: a route
// added to the table without a recipe here fails the first test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTE_PERMISSIONS } from '../../../api/route-table.js';
import { allows, type Permission } from '../../../state/auth/roles.js';
import type { Role } from '../../../state/auth/principal.js';
import { eventually, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { licensedRoot, testSigner } from '../../helpers/license.js';
import { connectWs } from '../../helpers/ws.js';

const SECRET = 'matrix-admin-secret';
const API_TOKEN = 'sk-live-0123456789abcdef';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
type Cred = 'none' | 'wrong' | 'viewer' | 'operator' | 'admin' | 'secret' | 'disabled secret';
const ROLE_OF: Partial<Record<Cred, Role>> = { viewer: 'viewer', operator: 'operator', admin: 'admin', secret: 'admin' };

interface Recipe {
  path: string;
  body?: unknown;
  /** The status an allowed caller gets (the request is built so that it changes nothing). */
  ok: number[];
  /** Allowed callers are not sent this request here: it would end the fixture (tested on its own). */
  allowedElsewhere?: string;
  /** What the route narrows for a role the table allows (a non-admin renewing another's token). */
  narrowed?: (role: Role) => number[] | null;
}

let d: RunningDaemon;
let app = '';
let spare = '';
const secrets: Partial<Record<Cred, string>> = { wrong: 'sk-not-a-real-token', secret: SECRET, 'disabled secret': SECRET };

function recipes(): Record<string, Recipe> {
  const p = `/api/v1/programs/${app}`;
  const missing = `/api/v1/programs/${MISSING_ID}`;
  return {
    'GET /health': { path: '/health', ok: [200] },
    'GET /': { path: '/', ok: [200] },
    'GET /assets/:name': { path: '/assets/no-such-file.js', ok: [404] },
    'GET /api/docs': { path: '/api/docs', ok: [200] },
    'GET /api/docs/init.js': { path: '/api/docs/init.js', ok: [200] },
    'GET /api/docs/:file': { path: '/api/docs/swagger-ui.css', ok: [200] },
    'GET /api/v1/openapi.json': { path: '/api/v1/openapi.json', ok: [200] },
    'GET /api/v1/auth/status': { path: '/api/v1/auth/status', ok: [200] },
    'POST /api/v1/auth/login': { path: '/api/v1/auth/login', ok: [200] },
    'POST /api/v1/auth/logout': { path: '/api/v1/auth/logout', ok: [200] },
    'GET /metrics': { path: '/metrics', ok: [200] },
    'GET /api/v1/programs': { path: '/api/v1/programs', ok: [200] },
    'GET /api/v1/programs/:id': { path: p, ok: [200] },
    'GET /api/v1/programs/:id/logs': { path: `${p}/logs?tail=5`, ok: [200] },
    'GET /api/v1/programs/:id/ota': { path: `${p}/ota`, ok: [200, 404] },
    'GET /api/v1/ota': { path: '/api/v1/ota', ok: [200] },
    'GET /api/v1/programs/:id/events': { path: `${p}/events`, ok: [200] },
    'GET /api/v1/events': { path: '/api/v1/events?limit=5', ok: [200] },
    'GET /api/v1/events/stats': { path: `/api/v1/events/stats?program_id=${app}`, ok: [200] },
    'GET /api/v1/stack': { path: '/api/v1/stack', ok: [200] },
    'GET /api/v1/stack/status': { path: '/api/v1/stack/status', ok: [200] },
    // No [[stacks.git]] in this daemon's config: the GitOps routes answer 404 past the permission check.
    'GET /api/v1/stack/diff': { path: '/api/v1/stack/diff', ok: [404] },
    'POST /api/v1/stack/sync': { path: '/api/v1/stack/sync', ok: [404] },
    'GET /api/v1/system/stats': { path: '/api/v1/system/stats', ok: [200, 503] },
    'GET /api/v1/system/storage': { path: '/api/v1/system/storage', ok: [200] },
    'GET /api/v1/watch': { path: '/api/v1/watch', ok: [200] },
    'GET /api/v1/system/license': { path: '/api/v1/system/license', ok: [200] },
    'GET /api/v1/system/plugins': { path: '/api/v1/system/plugins', ok: [200] },
    'GET /api/v1/system/reactions': { path: '/api/v1/system/reactions', ok: [200] },
    'POST /api/v1/system/reactions/:name/test': { path: '/api/v1/system/reactions/no-such-reaction/test', ok: [404] },
    'POST /api/v1/programs': { path: '/api/v1/programs', body: {}, ok: [400] },
    'POST /api/v1/programs/:id/start': { path: `${missing}/start`, ok: [404] },
    'POST /api/v1/programs/:id/stop': { path: `${missing}/stop`, ok: [404] },
    'POST /api/v1/programs/:id/restart': { path: `${missing}/restart`, ok: [404] },
    'POST /api/v1/programs/:id/reload': { path: `${missing}/reload`, ok: [404] },
    'POST /api/v1/programs/:id/signal': { path: `${missing}/signal`, body: { signal: 'hup' }, ok: [404] },
    'POST /api/v1/programs/:id/logs/flush': { path: `${missing}/logs/flush`, ok: [404] },
    'POST /api/v1/programs/:id/ota/rollback': { path: `${missing}/ota/rollback`, ok: [404] },
    'POST /api/v1/programs/batch': { path: '/api/v1/programs/batch', body: {}, ok: [400] },
    'PUT /api/v1/programs/:id': { path: p, body: { bogus: 1 }, ok: [400] },
    'DELETE /api/v1/programs/:id': { path: missing, ok: [404] },
    'DELETE /api/v1/system/storage/quarantine/:id': { path: '/api/v1/system/storage/quarantine/none', ok: [404] },
    'POST /api/v1/system/storage/quarantine/:id/restore': { path: '/api/v1/system/storage/quarantine/none/restore', ok: [404] },
    'PUT /api/v1/stack': { path: '/api/v1/stack', body: ' ', ok: [400] },
    'POST /api/v1/system/shutdown': { path: '/api/v1/system/shutdown', ok: [202], allowedElsewhere: 'the last test shuts svcd down with an admin token' },
    'GET /api/v1/auth/tokens': { path: '/api/v1/auth/tokens', ok: [200] },
    // `spare` is nobody's own token here: only admins may renew it (spec: non-admins only their own).
    'POST /api/v1/auth/tokens/:id/renew': { path: `/api/v1/auth/tokens/${spare}/renew`, ok: [200], narrowed: (role) => (role === 'admin' ? null : [403]) },
    'POST /api/v1/auth/tokens': { path: '/api/v1/auth/tokens', body: {}, ok: [400] },
    'DELETE /api/v1/auth/tokens/:id': { path: '/api/v1/auth/tokens/tok_000000000000', ok: [404] },
    'POST /api/v1/auth/secret/disable': { path: '/api/v1/auth/secret/disable', ok: [200], allowedElsewhere: 'disabling the secret is the step between the two phases' },
    'GET /api/v1/audit': { path: '/api/v1/audit?limit=3', ok: [200] },
    'GET /api/v1/audit/verify': { path: '/api/v1/audit/verify', ok: [200] },
    'GET /api/v1/system/notify': { path: '/api/v1/system/notify', ok: [200] },
    'GET /api/v1/system/ui': { path: '/api/v1/system/ui', ok: [200] },
    'PUT /api/v1/system/notify': { path: '/api/v1/system/notify', body: { channels: [{ name: 'x' }] }, ok: [400] },
    'POST /api/v1/system/notify/test': { path: '/api/v1/system/notify/test', body: { channel: 'none' }, ok: [404] },
  };
}

async function call(cred: Cred, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const token = secrets[cred];
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${d.url}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  // A stream (the watch route) never ends by itself: its status is the answer.
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: undefined, text: '' };
  }
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return { status: res.status, body: json, text };
}

function expected(cred: Cred, permission: Permission, recipe: Recipe): number[] {
  if (permission === 'public') return recipe.ok;
  const role = cred === 'disabled secret' ? undefined : ROLE_OF[cred];
  if (!role) return [401];
  if (!allows(role, permission)) return [403];
  return recipe.narrowed?.(role) ?? recipe.ok;
}

async function runColumn(cred: Cred): Promise<string[]> {
  const failures: string[] = [];
  const table = recipes();
  for (const [route, permission] of Object.entries(ROUTE_PERMISSIONS)) {
    if (route.startsWith('WS ')) continue;
    const recipe = table[route];
    if (!recipe) continue; // reported by the coverage test
    const want = expected(cred, permission, recipe);
    if (want === recipe.ok && recipe.allowedElsewhere && permission !== 'public') continue;
    const [method = ''] = route.split(' ');
    const got = await call(cred, method, recipe.path, recipe.body);
    if (!want.includes(got.status)) failures.push(`${cred}: ${route} -> ${got.status}, expected ${want.join(' or ')} (${got.text.slice(0, 120)})`);
  }
  return failures;
}

describe('auth matrix: every route x every credential, real daemon, security.so, notify.so and ui.so', () => {
  const signer = testSigner();
  before(async () => {
    const root = tempRoot('svc-matrix-');
    d = await startDaemon(root, { config: licensedRoot(root, signer, { secret: SECRET, extra: '', key: signer.issue({ grants: ['security', 'notify', 'ui'] }), plugins: ['security', 'notify', 'ui'] }).replace('[license]', 'enable_docs = true\n[license]') });
    const bearer = { authorization: `Bearer ${SECRET}` };
    for (const [name, role] of [['viewer', 'viewer'], ['operator', 'operator'], ['admin', 'admin'], ['spare', 'viewer']] as const) {
      const res = await d.request('POST', '/api/v1/auth/tokens', { name, role }, bearer);
      assert.equal(res.status, 201);
      if (name === 'spare') spare = res.body.id;
      else secrets[name] = res.body.secret;
    }
    const created = await d.request(
      'POST',
      '/api/v1/programs',
      { name: 'app', command: 'sh', args: ['-c', 'while true; do echo "API_TOKEN=$API_TOKEN"; sleep 0.2; done'], env: { API_TOKEN }, health_check: { type: 'http', url: 'http://probe:pw@127.0.0.1:9/h?key=k1', enabled: false } },
      bearer,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    app = created.body.id;
    await eventually(async () => (await d.request('GET', `/api/v1/programs/${app}/logs?tail=1`, undefined, bearer)).body.logs.length > 0, 10_000, 'the first log line');
  });
  after(async () => {
    await d.stop();
    removeRoot(d.root);
  });

  test('every route of the table has a request recipe here', () => {
    const missing = Object.keys(ROUTE_PERMISSIONS).filter((r) => !r.startsWith('WS ') && !recipes()[r]);
    assert.deepEqual(missing, []);
  });

  for (const cred of ['none', 'wrong', 'viewer', 'operator', 'admin', 'secret'] as const) {
    test(`column ${cred}: each route answers as the role table says`, async () => {
      assert.deepEqual(await runColumn(cred), []);
    });
  }

  test('viewers and operators see env values, URL credentials and logged secrets redacted; admins see them', async () => {
    for (const cred of ['viewer', 'operator', 'admin', 'secret'] as const) {
      const plain = cred === 'admin' || cred === 'secret';
      const detail = await call(cred, 'GET', `/api/v1/programs/${app}`);
      assert.equal(detail.body.config.env.API_TOKEN, plain ? API_TOKEN : '[redacted]', cred);
      assert.equal(detail.body.config.health_check.url, plain ? 'http://probe:pw@127.0.0.1:9/h?key=k1' : 'http://probe:[redacted]@127.0.0.1:9/h?key=[redacted]', cred);
      const stack = await call(cred, 'GET', '/api/v1/stack');
      assert.equal(stack.body.services[0].env.API_TOKEN, plain ? API_TOKEN : '[redacted]', cred);
      const logs = await call(cred, 'GET', `/api/v1/programs/${app}/logs?tail=3`);
      for (const line of logs.body.logs) assert.equal(line.content, plain ? `API_TOKEN=${API_TOKEN}` : 'API_TOKEN=[redacted]', cred);
      assert.ok(!(await call(cred, 'GET', '/api/v1/auth/tokens')).text.includes('sk-'), 'token listings never hold a secret');
    }
  });

  test('WS /ws: 4401 without a valid credential; every role streams, secrets masked below admin', async () => {
    const url = `${d.url.replace(/^http/, 'ws')}/ws?id=${app}`;
    for (const cred of ['none', 'wrong'] as const) {
      const c = connectWs(url, secrets[cred] ? { authorization: `Bearer ${secrets[cred]}` } : {});
      assert.equal((await c.closed).code, 4401, cred);
    }
    for (const cred of ['viewer', 'operator', 'admin', 'secret'] as const) {
      const c = connectWs(url, { authorization: `Bearer ${secrets[cred]}` });
      await c.opened;
      await eventually(() => c.messages.length > 0, 10_000, `a streamed line for ${cred}`);
      c.ws.close();
      const plain = cred === 'admin' || cred === 'secret';
      assert.equal(c.messages[0]?.content, plain ? `API_TOKEN=${API_TOKEN}` : 'API_TOKEN=[redacted]', cred);
    }
  });

  test('column disabled secret: after POST /auth/secret/disable the secret gets 401 on every non-public route, HTTP and WS', async () => {
    const disabled = await call('admin', 'POST', '/api/v1/auth/secret/disable');
    assert.equal(disabled.status, 200);
    assert.deepEqual(await runColumn('disabled secret'), []);
    const c = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${app}`, { authorization: `Bearer ${SECRET}` });
    assert.equal((await c.closed).code, 4401);
    assert.deepEqual(await runColumn('admin'), [], 'admin tokens keep working');
  });

  test('an admin token may shut svcd down (the request other columns were refused)', async () => {
    const res = await call('admin', 'POST', '/api/v1/system/shutdown');
    assert.equal(res.status, 202);
    await eventually(() => d.proc.exitCode !== null, 30_000, 'svcd to exit');
    assert.equal(d.proc.exitCode, 0);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Router from '@koa/router';
import { createApp } from '../../../api/app.js';
import type { ApiDeps } from '../../../api/deps.js';
import { MINIMUM_ROLE } from '../../../state/auth/roles.js';
import { permissionFor, ROUTE_PERMISSIONS, ROUTE_QUERY, routeOf } from '../../../api/route-table.js';
import { loadConfig } from '../../../conf/load-config.js';
import { noPlugins } from '../../../plugins/boot/runtime.js';

/** Every route of an app with every optional part on (docs, metrics, the security, notify and ui plugins). */
function registeredRoutes(): string[] {
  const config = loadConfig('/nonexistent-root', '/nonexistent-root/svc.toml');
  config.server.enable_docs = true;
  config.server.auth_secret = 'x';
  const security = { tokens: { mode: 'tokens', authenticate: () => ({ ok: false, reason: '' }) }, audit: {} };
  const deps = {
    config,
    store: { list: () => [], get: () => undefined, onChange: () => () => undefined },
    observed: {},
    actions: {},
    events: {},
    log: { error: () => undefined, info: () => undefined },
    version: '0.0.0',
    requestShutdown: () => undefined,
    metrics: { http: { middleware: () => (_ctx: unknown, next: () => Promise<void>) => next() }, metrics: {} },
    plugins: { ...noPlugins('licensed'), security, ui: { version: '1.0.0', panels: [] } },
    auditRecorder: {},
    notify: {},
  } as unknown as ApiDeps;
  const app = createApp(deps);
  const routes = new Set<string>();
  for (const mw of app.middleware as ((...a: unknown[]) => unknown)[]) {
    const router = (mw as { router?: Router }).router;
    for (const layer of router?.stack ?? []) {
      for (const method of layer.methods) if (method !== 'HEAD') routes.add(`${method} ${layer.path}`);
    }
  }
  return [...routes].sort();
}

test('every registered route has an entry in the route permission table', () => {
  const routes = registeredRoutes();
  assert.ok(routes.length >= 35, `found only ${routes.length} routes: the walk missed routers`);
  const missing = routes.filter((r) => !Object.hasOwn(ROUTE_PERMISSIONS, r));
  assert.deepEqual(missing, [], 'add these routes to api/route-table.ts');
  for (const r of routes) {
    const [method = '', path = ''] = r.split(' ');
    assert.notEqual(permissionFor(method, path), 'unlisted', r);
  }
});

test('every table entry is a real route (or the WebSocket), so the table is the whole API', () => {
  const routes = new Set(registeredRoutes());
  const stale = Object.keys(ROUTE_PERMISSIONS).filter((r) => !routes.has(r) && r !== 'WS /ws');
  assert.deepEqual(stale, []);
});

test('lookups: params, case, trailing slash, HEAD; anything unknown is admin-only (fails closed)', () => {
  assert.equal(permissionFor('POST', '/api/v1/programs/batch'), 'program.control');
  assert.equal(permissionFor('POST', '/api/v1/programs/0b6e2f4e-0000-4000-8000-000000000000/restart'), 'program.control');
  assert.equal(permissionFor('PUT', '/API/V1/Programs/abc'), 'program.update', 'the router matches case-insensitively');
  assert.equal(permissionFor('GET', '/api/v1/programs/'), 'read');
  assert.equal(permissionFor('HEAD', '/api/v1/programs'), 'read');
  assert.equal(permissionFor('WS', '/ws'), 'read');
  assert.equal(permissionFor('GET', '/ws'), 'unlisted');
  assert.equal(permissionFor('PATCH', '/api/v1/programs/x'), 'unlisted');
  assert.equal(permissionFor('GET', '/api/v1/nothing'), 'unlisted');
  assert.equal(MINIMUM_ROLE.unlisted, 'admin');
});

test('the query parameters of every route are those the OpenAPI document declares, and no others', async () => {
  const { openApiDocument } = await import('../../../api/openapi/document.js');
  const declared: Record<string, string[]> = {};
  const paths = openApiDocument('0.0.0').paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      if (names.length > 0) declared[`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`] = names.sort();
    }
  }
  const table = Object.fromEntries(Object.entries(ROUTE_QUERY).map(([route, names]) => [route, [...names].sort()]));
  assert.deepEqual(table, declared);
});

test('a route is found by its table key, case and trailing slash aside; no key for an unknown path', () => {
  assert.equal(routeOf('GET', '/API/v1/Programs/abc/logs/'), 'GET /api/v1/programs/:id/logs');
  assert.equal(routeOf('HEAD', '/api/v1/events'), 'GET /api/v1/events');
  assert.equal(routeOf('GET', '/api/v1/nothing'), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import type { ApiDeps } from '../../../api/deps.js';
import { openApiDocument } from '../../../api/openapi/document.js';

/** Static assets of the docs page: not API routes. */
const ASSETS = new Set(['/api/docs/init.js', '/api/docs/{file}']);

test('every route the app serves is in the OpenAPI document (so the route fuzz covers it)', () => {
  // Routers are only built here, never called: the deps they read at construction time suffice.
  const deps = {
    config: { server: { auth_secret: 's', enable_docs: true, max_body_bytes: 1024 }, storage: { log_dir: '/tmp' } },
    store: {},
    log: { error: () => undefined, info: () => undefined },
    version: 'test',
    stacks: { applier: {}, status: () => ({}) },
  } as unknown as ApiDeps;
  const served: string[] = [];
  for (const middleware of createApp(deps).middleware) {
    const router = (middleware as { router?: { stack: { methods: string[]; path: string }[] } }).router;
    for (const layer of router?.stack ?? []) {
      const path = layer.path.replace(/:(\w+)/g, '{$1}');
      for (const method of layer.methods) if (method !== 'HEAD' && !ASSETS.has(path)) served.push(`${method} ${path}`);
    }
  }
  const doc = openApiDocument('test') as { paths: Record<string, Record<string, unknown>> };
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)));
  assert.ok(served.length >= 25, served.join('\n'));
  assert.deepEqual(served.filter((r) => !documented.has(r)), []);
});

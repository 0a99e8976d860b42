import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { UI_PANELS, uiRouter, unlockedPanels } from '../../../api/routes/ui-extensions.js';

test('panels need the ui grant and their own feature', () => {
  assert.deepEqual(unlockedPanels(UI_PANELS, ['access_tokens', 'audit_log']), []);
  assert.deepEqual(
    unlockedPanels(UI_PANELS, ['dashboard_extensions', 'access_tokens', 'audit_log', 'rbac']).map((p) => p.id),
    ['tokens', 'audit'],
  );
  assert.deepEqual(
    unlockedPanels(UI_PANELS, ['dashboard_extensions', 'notify_channels']).map((p) => p.id),
    ['notify'],
  );
});

test('GET /api/v1/system/ui lists the unlocked panels with the plugin version', async () => {
  let features = ['dashboard_extensions', 'notify_channels'];
  const v1 = new Router({ prefix: '/api/v1' });
  const ui = uiRouter({ pluginVersion: '1.0.0', features: () => features });
  v1.use(ui.routes(), ui.allowedMethods());
  const app = new Koa();
  app.use(v1.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/system/ui`;
    const body = (await (await fetch(url)).json()) as { plugin_version: string; panels: { id: string; min_role: string }[] };
    assert.equal(body.plugin_version, '1.0.0');
    assert.deepEqual(body.panels.map((p) => [p.id, p.min_role]), [['notify', 'operator']]);
    features = [];
    assert.deepEqual(((await (await fetch(url)).json()) as { panels: unknown[] }).panels, []);
  } finally {
    server.close();
  }
});

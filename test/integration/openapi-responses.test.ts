import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, fixture, useDaemon } from '../helpers/daemon.js';
import { responseChecker } from '../helpers/openapi-responses.js';

const d = useDaemon();
const checker = responseChecker();

/** A request to svcd whose answer must match the OpenAPI document (`template` names the route). */
async function call<T = any>(method: string, template: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await d.request<T>(method, path, body);
  checker.check(method, template, res.status, res.body);
  return res;
}

test('real responses of the API routes match the OpenAPI document', async () => {
  await call('GET', '/health', '/health');
  const created = await call<{ id: string }>('POST', '/api/v1/programs', '/api/v1/programs', { name: 'web', command: process.execPath, args: [fixture('ticker.js'), '200'] });
  assert.equal(created.status, 201);
  const id = created.body.id;
  await eventually(async () => (await d.request<{ status: string }[]>('GET', '/api/v1/programs')).body.some((p) => p.status === 'Running'));
  await call('POST', '/api/v1/programs', '/api/v1/programs', { name: 'web', command: 'x' }); // 409: name taken
  await call('POST', '/api/v1/programs', '/api/v1/programs', { name: 'bad', command: 'x', max_concurrent: 999 }); // 400
  await call('GET', '/api/v1/programs', '/api/v1/programs');
  await call('GET', '/api/v1/programs/{id}', `/api/v1/programs/${id}`);
  await call('GET', '/api/v1/programs/{id}', '/api/v1/programs/00000000-0000-4000-8000-000000000000'); // 404
  await call('PUT', '/api/v1/programs/{id}', `/api/v1/programs/${id}`, { stopsecs: 3 });
  await call('GET', '/api/v1/programs/{id}/logs', `/api/v1/programs/${id}/logs?tail=5`);
  await call('POST', '/api/v1/programs/{id}/logs/flush', `/api/v1/programs/${id}/logs/flush`);
  await call('POST', '/api/v1/programs/{id}/signal', `/api/v1/programs/${id}/signal`, { signal: 'usr2' });
  await call('POST', '/api/v1/programs/{id}/restart', `/api/v1/programs/${id}/restart`);
  await call('POST', '/api/v1/programs/{id}/stop', `/api/v1/programs/${id}/stop`);
  await call('POST', '/api/v1/programs/{id}/start', `/api/v1/programs/${id}/start`);
  const batch = await call('POST', '/api/v1/programs/batch', '/api/v1/programs/batch', { select_all: true, action: { type: 'Restart', payload: null } });
  assert.equal(batch.status, 200);
  await call('POST', '/api/v1/programs/batch', '/api/v1/programs/batch', { target_ids: ['00000000-0000-4000-8000-000000000000'], action: { type: 'Stop', payload: null } });
  const cron = await call<{ id: string }>('POST', '/api/v1/programs', '/api/v1/programs', { name: 'tick', command: 'true', cron: '0 0 1 1 *' });
  await eventually(async () => (await d.request<{ state: { status: string } }>('GET', `/api/v1/programs/${cron.body.id}`)).body.state.status === 'Scheduled');
  await call('GET', '/api/v1/programs/{id}', `/api/v1/programs/${cron.body.id}`); // status Scheduled is in the enum
  await call('GET', '/api/v1/programs', '/api/v1/programs');
  await call('GET', '/api/v1/events', '/api/v1/events?limit=5');
  await call('GET', '/api/v1/programs/{id}/events', `/api/v1/programs/${id}/events?limit=5`);
  await call('GET', '/api/v1/events/stats', '/api/v1/events/stats');
  await call('GET', '/api/v1/stack', '/api/v1/stack');
  await call('PUT', '/api/v1/stack', '/api/v1/stack?dry_run=true', { services: [{ name: 'api', command: 'true', autostart: false }] });
  await call('GET', '/api/v1/stack/status', '/api/v1/stack/status');
  await call('GET', '/api/v1/system/storage', '/api/v1/system/storage');
  await call('GET', '/api/v1/system/plugins', '/api/v1/system/plugins');
  await call('GET', '/api/v1/system/license', '/api/v1/system/license');
  await call('GET', '/api/v1/ota', '/api/v1/ota');
  await eventually(async () => (await d.request('GET', '/api/v1/system/stats')).status === 200);
  await call('GET', '/api/v1/system/stats', '/api/v1/system/stats');
  await call('DELETE', '/api/v1/programs/{id}', `/api/v1/programs/${cron.body.id}`);
  await call('DELETE', '/api/v1/programs/{id}', `/api/v1/programs/${id}`);
  assert.ok(checker.seen().length >= 20, checker.seen().join('\n'));
});

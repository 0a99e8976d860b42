import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttp } from 'node:http';
import { createServer as createTcp, type AddressInfo, type Server, type Socket } from 'node:net';
import { ApiClient } from '../../../../tui/client/http.js';
import { routes } from '../../../../tui/client/routes.js';
import { apiDashboardClient } from '../../../../tui/dashboard/api-client.js';

const LIVENESS = { everyMs: 50, timeoutMs: 200 };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a svcd that accepts connections but answers nothing (SIGSTOPped) is reported as hung, not waited on for 120 s', async () => {
  const sockets: Socket[] = [];
  const server = createTcp((s) => void sockets.push(s)); // the kernel accepts; nothing ever reads or answers
  const url = await listen(server);
  try {
    await assert.rejects(new ApiClient({ url, liveness: LIVENESS }).post('/api/v1/programs/x/restart'), (err: Error & { kind?: string }) => {
      assert.equal(err.kind, 'timeout');
      assert.match(err.message, /svcd at http:\/\/127\.0\.0\.1:\d+ accepts connections but does not answer \(GET \/health got no answer in 0\.2 s\): is it stopped \(kill -STOP\) or stuck\?/);
      return true;
    });
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an action that takes long on a svcd that answers /health is waited for', async () => {
  let healthChecks = 0;
  const server = createHttp((req, res) => {
    if (req.url === '/health') {
      healthChecks += 1;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    }
    // The action's answer comes after several liveness rounds.
    const wait = setInterval(() => {
      if (healthChecks < 4) return;
      clearInterval(wait);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"done":true}');
    }, 10);
  });
  const url = await listen(server);
  try {
    assert.deepEqual(await new ApiClient({ url, liveness: LIVENESS }).post('/api/v1/programs/x/restart'), { done: true });
    assert.ok(healthChecks >= 4);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a request given its own timeoutMs (a reaction test run) waits past the client\'s idle timeout', async () => {
  const server = createHttp((req, res) => {
    if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"outcome":"ok"}'), 600);
  });
  const url = await listen(server);
  try {
    const client = new ApiClient({ url, timeoutMs: 200, liveness: LIVENESS });
    await assert.rejects(client.post('/api/v1/system/reactions/slow/test'), (err: Error & { kind?: string }) => err.kind === 'timeout');
    assert.deepEqual(await client.post('/api/v1/system/reactions/slow/test', undefined, { timeoutMs: 30_000 }), { outcome: 'ok' });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a batch action (svc reload, R in svc ui) that takes longer than the client\'s idle timeout is waited for; a hung svcd is still told', async () => {
  const server = createHttp((req, res) => {
    if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    // A reload whose new process needs a few seconds to be Healthy: longer than the dashboard's 5 s.
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"action":"Reload","results":[{"id":"x","name":"web","ok":true}]}'), 600);
  });
  const url = await listen(server);
  const sockets: Socket[] = [];
  const hung = createTcp((s) => void sockets.push(s));
  const hungUrl = await listen(hung);
  try {
    const client = new ApiClient({ url, timeoutMs: 200, liveness: LIVENESS });
    const dashboard = apiDashboardClient(client);
    assert.deepEqual(await dashboard.batch(['x'], { type: 'Reload', payload: null }), [{ id: 'x', name: 'web', ok: true }]);
    assert.equal((await routes.batch(client, { target_ids: ['x'], action: { type: 'Reload', payload: null } })).results.length, 1);
    await assert.rejects(routes.batch(new ApiClient({ url: hungUrl, timeoutMs: 200, liveness: LIVENESS }), { target_ids: ['x'], action: { type: 'Reload', payload: null } }), (err: Error & { kind?: string }) => {
      assert.match(err.message, /accepts connections but does not answer/);
      return true;
    });
  } finally {
    for (const s of sockets) s.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => hung.close(resolve));
  }
});

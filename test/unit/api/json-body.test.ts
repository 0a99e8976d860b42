import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { serializeJsonBodies } from '../../../api/json-body.js';

// Node's list of the built-in modules it has loaded (not in @types/node).
const undiciLoaded = () => (process as unknown as { moduleLoadList: string[] }).moduleLoadList.some((m) => m.includes('internal/deps/undici'));

async function fetchRaw(app: Koa, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await new Promise((resolve, reject) => {
      get(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      }).on('error', reject);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

test('JSON bodies answer as Koa would, without loading undici', async () => {
  assert.equal(undiciLoaded(), false, 'precondition: nothing in this process loaded undici yet');
  const app = new Koa();
  serializeJsonBodies(app);
  const seen: unknown[] = [];
  app.use(async (ctx, next) => {
    await next();
    seen.push(ctx.body);
  });
  app.use((ctx) => {
    if (ctx.path === '/object') ctx.body = { a: 1, text: 'é' };
    else if (ctx.path === '/array') ctx.body = [1, 'two'];
    else if (ctx.path === '/typed') {
      ctx.type = 'application/problem+json';
      ctx.status = 400;
      ctx.body = { status: 'error' };
    } else if (ctx.path === '/text') ctx.body = 'plain';
    else if (ctx.path === '/buffer') ctx.body = Buffer.from('bytes');
  });
  const object = await fetchRaw(app, '/object');
  assert.deepEqual([object.status, object.headers['content-type'], object.headers['content-length'], object.text], [200, 'application/json; charset=utf-8', '19', '{"a":1,"text":"é"}']);
  const array = await fetchRaw(app, '/array');
  assert.deepEqual([array.headers['content-type'], array.text], ['application/json; charset=utf-8', '[1,"two"]']);
  const typed = await fetchRaw(app, '/typed');
  assert.deepEqual([typed.status, typed.headers['content-type'], typed.text], [400, 'application/problem+json', '{"status":"error"}']);
  const text = await fetchRaw(app, '/text');
  assert.deepEqual([text.headers['content-type'], text.text], ['text/plain; charset=utf-8', 'plain']);
  const buffer = await fetchRaw(app, '/buffer');
  assert.deepEqual([buffer.headers['content-type'], buffer.text], ['application/octet-stream', 'bytes']);
  assert.equal((await fetchRaw(app, '/none')).status, 404);
  assert.equal(seen[0], '{"a":1,"text":"é"}', 'later middleware read the serialized body');
  assert.equal(undiciLoaded(), false, "Koa's body setter never touched the Response global");
});

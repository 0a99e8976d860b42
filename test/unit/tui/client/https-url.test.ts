import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../../../tui/client/http.js';

void test('an https:// URL is spoken to over TLS (node:https is loaded only for such a URL)', async () => {
  // A plain-HTTP server that would answer JSON: over TLS the handshake fails instead.
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    assert.deepEqual(await new ApiClient({ url: `http://127.0.0.1:${port}` }).get('/api/v1/programs'), []);
    await assert.rejects(new ApiClient({ url: `https://127.0.0.1:${port}`, timeoutMs: 5000 }).get('/api/v1/programs'), (err: Error) => {
      assert.match(err.message, /^svcd at https:\/\/127\.0\.0\.1:\d+ answered without TLS: svcd serves plain HTTP, so use http:\/\/127\.0\.0\.1:\d+ /);
      return true;
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

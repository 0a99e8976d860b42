import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProbes } from '../../../../controllers/health/probes.js';

// A probe's message becomes a health event, listed to viewers and pushed to webhooks: the URL's
// password and query values must not be in it (docs/security.md).
test('an HTTP probe names its URL without password and query values', async () => {
  const server = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const probes = createProbes({ capture: () => Promise.reject(new Error('unused')) });
    const outcome = await probes.http(`http://probe:hcpassword@127.0.0.1:${port}/h?key=hckeyvalue`, 5_000);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.message, `GET http://probe:[redacted]@127.0.0.1:${port}/h?key=[redacted]: HTTP 503`);
  } finally {
    server.close();
  }
});

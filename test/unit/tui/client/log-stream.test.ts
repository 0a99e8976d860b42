import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiClient } from '../../../../tui/client/http.js';
import { openLogStream } from '../../../../tui/client/log-stream.js';
import { ApiError } from '../../../../tui/client/errors.js';

/** A stand-in for svcd's WS /ws: hands each connection to `onSocket`. */
async function logServer(onSocket: (ws: WebSocket) => void): Promise<{ url: string; close(): void }> {
  const server = createServer((_req, res) => res.end());
  const wss = new WebSocketServer({ server });
  wss.on('connection', onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      wss.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Opens a log stream against a stand-in svcd, lets `end` finish it from the server's side once
 * it runs, and resolves with what the stream ended with (null when it ended without an error).
 */
async function endedStream(end: (ws: WebSocket) => void): Promise<{ url: string; err: unknown }> {
  let finish: (() => void) | null = null;
  const svcd = await logServer((ws) => (finish = () => end(ws)));
  try {
    const stream = await openLogStream(new ApiClient({ url: svcd.url }), 'an-id');
    stream.start(() => undefined);
    finish!();
    return { url: svcd.url, err: await stream.done.then(() => null, (e: unknown) => e) };
  } finally {
    svcd.close();
  }
}

test('svc logs -f: a connection that drops without a close (svcd killed, network gone) is said as such, not as a code', async () => {
  const { url, err } = await endedStream((ws) => ws.terminate());
  assert.ok(err instanceof ApiError);
  assert.equal(err.message, `lost the connection to svcd at ${url} (it was killed or restarted, or the network failed): the log stream ended`);
  assert.equal(err.kind, 'closed'); // exit 1, as any end of the stream svc did not ask for (docs/cli.md)
});

test('svc logs -f: a stream svcd closes keeps svcd\'s reason', async () => {
  const { err } = await endedStream((ws) => ws.close(1001, 'svcd is shutting down'));
  assert.ok(err instanceof ApiError);
  assert.equal(err.message, 'log stream closed by svcd (1001: svcd is shutting down)');
});

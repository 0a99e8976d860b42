import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { useDaemon } from '../helpers/daemon.js';

const d = useDaemon({ config: '[server]\nport = 0\nrequest_timeout_secs = 2\nmax_connections = 8\n' });

const hostPort = () => {
  const url = new URL(d.url);
  return { host: url.hostname, port: Number(url.port) };
};

/** A raw connection that records what it receives and when it closes. */
function rawSocket(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const { host, port } = hostPort();
  return new Promise((resolve, reject) => {
    let data = '';
    const started = Date.now();
    const socket = connect(port, host);
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - started)));
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', () => undefined); // a reset is a close
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

test('connections beyond max_connections are closed at once; the API answers again when they go', async () => {
  // First in the file: no pooled keep-alive connection of this client exists yet.
  const held = await Promise.all(Array.from({ length: 8 }, () => rawSocket()));
  const extra = await rawSocket();
  await extra.closed;
  assert.equal(extra.received(), '', 'dropped without a response');
  for (const h of held) h.socket.destroy();
  await Promise.all(held.map((h) => h.closed));
  // The daemon learns of the closes asynchronously: until it has, a new connection may still be
  // over the limit and dropped, so the API must answer again shortly, not necessarily at once.
  const { eventually } = await import('../helpers/daemon.js');
  const status = await eventually(async () => (await fetch(`${d.url}/health`)).status, 10_000, 'the API answering after the held connections closed');
  assert.equal(status, 200);
});

test('a body that trickles in is cut with 408 after request_timeout_secs (not held for 300 s)', async () => {
  const s = await rawSocket();
  s.socket.write('POST /api/v1/programs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na');
  const closedAfter = await s.closed;
  assert.match(s.received(), /^HTTP\/1\.1 408 /);
  assert.ok(closedAfter < 60_000, `closed after ${closedAfter} ms`);
  // The daemon did not log an aborted upload as an internal error.
  assert.ok(!d.stderr.some((l) => l.includes('"request failed"')), d.stderr.filter((l) => l.includes('request failed')).join('\n'));
});

test('a connection that never sends a request is closed', async () => {
  const s = await rawSocket();
  await s.closed;
  assert.match(s.received(), /^HTTP\/1\.1 408 /);
});

test('a handler that takes longer than the request timeout is not cut (the timeout covers receiving only)', async () => {
  const create = await d.request('POST', '/api/v1/programs', { name: 'stubborn', command: process.execPath, args: ['-e', "process.on('SIGTERM',()=>{});setInterval(()=>{},1000);console.log('ready')"], stopsecs: 3 });
  assert.equal(create.status, 201);
  const id = create.body.id as string;
  const { eventually } = await import('../helpers/daemon.js');
  await eventually(async () => (await d.request('GET', `/api/v1/programs/${id}/logs`)).body.logs.some((l: { content: string }) => l.content === 'ready'), 30_000, 'ready');
  const stop = await d.request('POST', `/api/v1/programs/${id}/stop`);
  assert.equal(stop.status, 200);
  assert.equal(stop.body.status, 'Stopped');
});

test('a WebSocket log stream outlives request_timeout_secs (the limit covers receiving requests only)', async () => {
  const { connectWs } = await import('../helpers/ws.js');
  const { fixture } = await import('../helpers/daemon.js');
  const create = await d.request('POST', '/api/v1/programs', { name: 'ticker', command: process.execPath, args: [fixture('ticker.js'), '100'] });
  assert.equal(create.status, 201);
  const ws = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${create.body.id as string}`);
  await ws.opened;
  const started = Date.now();
  const { eventually } = await import('../helpers/daemon.js');
  // Three times the 2 s request timeout, measured by the stream itself: lines keep coming.
  await eventually(() => ws.messages.some((m) => m.ts * 1000 > started + 6000), 30_000, 'a line more than 6 s into the stream');
  let closed = false;
  void ws.closed.then(() => (closed = true));
  assert.equal(closed, false);
  ws.ws.close();
});

test('a body the route does not read is received before the answer, so a closing connection never loses the answer', async () => {
  const s = await rawSocket();
  const body = JSON.stringify({ padding: 'x'.repeat(200_000) });
  s.socket.write(`GET /api/v1/programs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 1000)}`);
  // Without the rest of the body there is no answer yet (Node would answer, close, and the
  // kernel would reset the connection on the bytes still arriving).
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(s.received(), '', 'no answer before the body is in');
  s.socket.write(body.slice(1000));
  await s.closed;
  const [head, payload] = s.received().split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 200 /);
  assert.ok(Array.isArray(JSON.parse(payload)), 'the whole answer arrived');
});

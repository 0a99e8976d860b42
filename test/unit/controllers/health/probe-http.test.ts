import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { createProbes } from '../../../../controllers/health/probes.js';

const probes = createProbes({ capture: () => Promise.reject(new Error('unused')) });

/** The promise's value, or 'still waiting' after `ms` (what was awaited never happened). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((r) => (timer = setTimeout(() => r('still waiting'), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('an HTTP probe of an endpoint whose body never ends passes and closes its connection', async () => {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: up\n\n');
    const tick = setInterval(() => res.write('data: up\n\n'), 50);
    res.once('close', () => clearInterval(tick));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const outcome = await probes.http(`http://127.0.0.1:${port}/events`, 5_000);
    assert.deepEqual(outcome, { ok: true, message: `GET http://127.0.0.1:${port}/events: HTTP 200` });
    // Every probe left such a connection open and kept reading it: a socket per interval, for good.
    assert.equal(await within(once(requests[0].socket, 'close').then(() => 'closed'), 10_000), 'closed');
    assert.equal(requests[0].headers.connection, 'close', 'a probe is a connection of its own');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('an HTTP probe fails at its timeout when the server sends its headers a byte at a time', async () => {
  // Never idle for long, never done: a socket inactivity timeout never fires.
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.write('HTTP/1.1 200 OK\r\n');
    const tick = setInterval(() => socket.write('X'), 20);
    socket.once('close', () => clearInterval(tick));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const outcome = await within(probes.http(`http://127.0.0.1:${port}/health`, 300), 10_000);
    assert.deepEqual(outcome, { ok: false, message: `GET http://127.0.0.1:${port}/health: no answer within 300 ms` });
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
});

test('an HTTP probe that is abandoned (its program stopped) ends at once and closes its connection', async () => {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.resume(); // reads the request, never answers
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const abort = new AbortController();
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const outcome = probes.http(`http://127.0.0.1:${port}/health`, 3_600_000, abort.signal);
    const [socket] = await accepted;
    const closed = once(socket, 'close').then(() => 'closed');
    abort.abort();
    assert.deepEqual(await within(outcome, 10_000), { ok: false, message: `GET http://127.0.0.1:${port}/health: abandoned` });
    assert.equal(await within(closed, 10_000), 'closed');
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
});

test('an HTTP probe of a server that answers with huge headers or not in HTTP says so in words', async () => {
  const answers = [
    `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    'SSH-2.0-OpenSSH_9.2\r\n',
  ];
  const server = createTcpServer((socket: Socket) => {
    socket.once('data', () => socket.end(answers.shift() ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const huge = await probes.http(`http://127.0.0.1:${port}/`, 5_000);
    assert.deepEqual(huge, { ok: false, message: `GET http://127.0.0.1:${port}/: the response headers are larger than 16 KiB (HPE_HEADER_OVERFLOW)` });
    const ssh = await probes.http(`http://127.0.0.1:${port}/`, 5_000);
    assert.equal(ssh.ok, false);
    assert.match(ssh.message, /: the (answer|status line) is not HTTP \(HPE_INVALID_(CONSTANT|STATUS)\)$/);
  } finally {
    server.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { ApiClient } from '../../../../tui/client/http.js';
import { followLogs, type LogMode } from '../../../../tui/client/log-follow.js';
import { until } from '../../../helpers/ink-frames.js';

/** A local svcd stand-in: an HTTP server with (or without) the WebSocket route, stoppable and restartable on its port. */
class LogDaemon {
  server: Server | null = null;
  wss: WebSocketServer | null = null;
  port = 0;
  constructor(private readonly webSocket: boolean) {}

  async start(): Promise<void> {
    const server = createServer((_req, res) => {
      res.statusCode = 404;
      res.end('{"status":"error","message":"not found"}');
    });
    if (this.webSocket) {
      const wss = (this.wss = new WebSocketServer({ server }));
      wss.on('connection', (ws) => ws.send(JSON.stringify({ source: 'stdout', content: `hello on ${this.port}`, ts: 1 })));
    }
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    // Upgraded sockets are no longer the HTTP server's: closed here, or close() waits for them.
    for (const ws of this.wss?.clients ?? []) ws.terminate();
    this.wss?.close();
    this.wss = null;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function follow(port: number, clock: FakeClock) {
  const modes: LogMode[] = [];
  const lines: string[] = [];
  const api = new ApiClient({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
  const stop = followLogs(api, 'p1', { tail: async () => [], pollMs: 1000, clock }, {
    lines: (ls) => lines.push(...ls.map((l) => l.content)),
    mode: (m) => modes.push(m),
  });
  return { modes, lines, stop };
}

/** Fires the pending backoff timer until `check` holds (each try is a real connection attempt). */
async function retryUntil(clock: FakeClock, what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    clock.advance(5000);
    await new Promise((r) => setTimeout(r, 20));
  }
}

void test('a daemon that goes away and comes back: the log stream reconnects, it does not fall back to polling', async () => {
  const daemon = new LogDaemon(true);
  await daemon.start();
  const clock = new FakeClock();
  const f = follow(daemon.port, clock);
  try {
    await until('live', () => f.modes.at(-1) === 'live' && f.lines.length === 1);
    await daemon.stop();
    // The open socket drops; each reconnection is refused while svcd is away.
    const before = f.modes.length;
    await retryUntil(clock, 'three refused reconnections', () => f.modes.includes('polling') || f.modes.slice(before).filter((m) => m === 'connecting').length >= 3);
    assert.ok(!f.modes.includes('polling'), `modes: ${f.modes.join(' ')}`);
    await daemon.start();
    await retryUntil(clock, 'live again', () => f.modes.at(-1) === 'live' && f.lines.length === 2);
    assert.ok(!f.modes.includes('polling'), `modes: ${f.modes.join(' ')}`);
  } finally {
    f.stop();
    await daemon.stop();
  }
});

void test('svc ui opened before svcd is up: the log stream waits for it instead of polling', async () => {
  const daemon = new LogDaemon(true);
  await daemon.start();
  await daemon.stop(); // a port that refuses, where the daemon will start
  const clock = new FakeClock();
  const f = follow(daemon.port, clock);
  try {
    await retryUntil(clock, 'refused twice', () => f.modes.includes('polling') || f.modes.filter((m) => m === 'connecting').length >= 2);
    assert.ok(!f.modes.includes('polling'), `modes: ${f.modes.join(' ')}`);
    await daemon.start();
    await retryUntil(clock, 'live', () => f.modes.at(-1) === 'live');
    assert.ok(!f.modes.includes('polling'), `modes: ${f.modes.join(' ')}`);
  } finally {
    f.stop();
    await daemon.stop();
  }
});

void test('a daemon that answers the upgrade without a WebSocket gets the tail polled', async () => {
  const daemon = new LogDaemon(false);
  await daemon.start();
  const clock = new FakeClock();
  const f = follow(daemon.port, clock);
  try {
    await until('polling', () => f.modes.at(-1) === 'polling');
  } finally {
    f.stop();
    await daemon.stop();
  }
});

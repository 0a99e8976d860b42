import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import * as prom from 'prom-client';
import { checkConnectionsWhileOpen } from '../../../api/http-idle-checks.js';
import { LOOP_LAG_IDLE_MS, loopLagMetrics } from '../../../api/metrics/loop-lag.js';

test('loop lag: measured only while scraped; switched off LOOP_LAG_IDLE_MS after the last scrape', async () => {
  const timers: { ms: number; fn: () => void; cancelled: boolean }[] = [];
  const setTimer = (ms: number, fn: () => void) => {
    const t = { ms, fn, cancelled: false };
    timers.push(t);
    return () => (t.cancelled = true);
  };
  const registry = new prom.Registry();
  loopLagMetrics({ prefix: 'svc_', setTimer }).install(registry, prom);
  assert.equal(timers.length, 0, 'nothing armed before the first scrape');
  const text = await registry.metrics();
  for (const name of ['seconds', 'min_seconds', 'max_seconds', 'mean_seconds', 'stddev_seconds', 'p50_seconds', 'p90_seconds', 'p99_seconds']) {
    assert.match(text, new RegExp(`^svc_nodejs_eventloop_lag_${name} `, 'm'));
  }
  assert.deepEqual(timers.map((t) => [t.ms, t.cancelled]), [[LOOP_LAG_IDLE_MS, false]]);
  await registry.metrics();
  assert.deepEqual(timers.map((t) => t.cancelled), [true, false], 'each scrape pushes the switch-off back');
  timers[1]?.fn();
  await registry.metrics();
  assert.equal(timers.length, 3, 'a scrape after the switch-off starts measuring again');
  timers[2]?.fn();
});

test('HTTP timeout check: no timer while no connection is open; a slow request is still cut', async () => {
  const server = createServer({ connectionsCheckingInterval: 50 }, (_req, res) => res.end('ok'));
  server.headersTimeout = 200;
  server.requestTimeout = 200;
  checkConnectionsWhileOpen(server, 50);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const sym = Object.getOwnPropertySymbols(server).find((s) => s.description === 'http.server.connectionsCheckingInterval');
    assert.ok(sym, 'this Node keeps the check timer under the expected symbol');
    const nodeTimer = (server as unknown as Record<symbol, { _destroyed?: boolean }>)[sym];
    assert.equal(nodeTimer._destroyed, true, "Node's always-on interval is cleared");
    const port = (server.address() as { port: number }).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nhost: x\r\n')); // headers never end
      let got = '';
      socket.on('data', (b: Buffer) => (got += b.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 408/, 'the check ran while the connection was open');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

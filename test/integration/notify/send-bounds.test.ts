import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryAgent, postOnce } from '../../../plugins/notify/delivery/send.js';

// A receiver's answer is read only as far as the error message needs it, and within the
// attempt's timeout (docs/notify.md, [delivery] timeout_secs: "connect, response headers, and
// body each bounded"). undici's bodyTimeout only bounds the gap between chunks.

const HUGE = 64 * 1024 * 1024;
const state = { hugeWritten: 0 };
const intervals = new Set<NodeJS.Timeout>();

function streamHuge(res: ServerResponse) {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const pump = () => {
    while (state.hugeWritten < HUGE) {
      state.hugeWritten += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.writeHead(500, { 'content-type': 'text/plain' });
  pump();
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/huge') return streamHuge(res);
    // '/drip': a 200 whose body never ends, one byte at a time, well inside undici's bodyTimeout.
    res.writeHead(200, { 'content-type': 'text/plain' });
    const drip = setInterval(() => res.write('.'), 50);
    intervals.add(drip);
    res.on('close', () => clearInterval(drip));
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const agent = await deliveryAgent(1);

after(async () => {
  for (const t of intervals) clearInterval(t);
  await agent.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

test('a receiver that answers 200 and then trickles its body forever does not hold the delivery', { timeout: 15_000 }, async () => {
  const attempt = await postOnce(agent, `${base}/drip`, '{}', {}, 1000);
  assert.deepEqual(attempt, { status: 200, error: null, retryable: false });
});

test('a huge error body is not read whole: its start explains the status', { timeout: 15_000 }, async () => {
  const attempt = await postOnce(agent, `${base}/huge`, '{}', {}, 1000);
  assert.equal(attempt.status, 500);
  assert.equal(attempt.retryable, true);
  assert.match(attempt.error ?? '', /^HTTP 500: x{200}$/);
  assert.equal(state.hugeWritten < HUGE, true, `the receiver could write only part of its ${HUGE} bytes (wrote ${state.hugeWritten})`);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { probeLookup, type LookupFn } from '../../../controllers/health/probe-lookup.js';
import { createProbes } from '../../../controllers/health/probes.js';

/** A resolver that answers only when told: the calls it got, and how to answer each. */
function heldResolver() {
  const calls: { host: string; answer: (address: string) => void }[] = [];
  const lookup: LookupFn = (host, _options, callback) => calls.push({ host, answer: (address) => callback(null, address, 4) });
  return { calls, lookup };
}

const ask = (lookup: LookupFn, host: string) =>
  new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) => lookup(host, {}, (err, address) => resolve({ err, address })));

test('probe lookups: at most two run at once, the same question shares the one in flight, the rest wait their turn', async () => {
  const r = heldResolver();
  const lookup = probeLookup(r.lookup);
  const answers = ['a', 'b', 'c', 'a'].map((h) => ask(lookup, h));
  assert.deepEqual(r.calls.map((c) => c.host), ['a', 'b'], 'two at once; c waits; the second a shares the first');
  r.calls[0].answer('10.0.0.1');
  assert.deepEqual(r.calls.map((c) => c.host), ['a', 'b', 'c'], 'c runs once a finished');
  r.calls[1].answer('10.0.0.2');
  r.calls[2].answer('10.0.0.3');
  assert.deepEqual((await Promise.all(answers)).map((a) => a.address), ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.1']);
});

test('probe lookups: a resolver that does not answer grows no backlog past 64 waiting; the rest fail at once with EAI_AGAIN', async () => {
  const r = heldResolver();
  const lookup = probeLookup(r.lookup);
  for (let i = 0; i < 2 + 64; i++) void ask(lookup, `host-${i}`);
  const refused = await ask(lookup, 'one-more');
  assert.equal(refused.err?.code, 'EAI_AGAIN');
  assert.match(refused.err.message, /64 host name lookups already waiting/);
  assert.equal(r.calls.length, 2);
});

test('tcp and http probes resolve host names through the probe lookup', async () => {
  const server = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const asked: string[] = [];
  const lookup: LookupFn = (host, options, callback) => {
    asked.push(host);
    const all = (options as { all?: boolean }).all;
    if (all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
  try {
    const probes = createProbes({ capture: async () => ({ code: 0, signal: null, output: '', timedOut: false }) }, lookup);
    assert.deepEqual(await probes.tcp('app.svc-test.invalid', port, 2000), { ok: true, message: `tcp app.svc-test.invalid:${port}: connected` });
    const http = await probes.http(`http://web.svc-test.invalid:${port}/health`, 2000);
    assert.equal(http.ok, true, http.message);
    assert.deepEqual(asked, ['app.svc-test.invalid', 'web.svc-test.invalid']);
  } finally {
    server.close();
  }
});

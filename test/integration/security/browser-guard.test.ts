// Open mode (loopback, no auth_secret) against the two ways a web page the user visits could
// drive svcd: a cross-site form-type POST (no CORS preflight) and DNS rebinding (a page whose
// name resolves to 127.0.0.1). Raw node:http, since fetch will not send a chosen Host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { fixture, useDaemon } from '../../helpers/daemon.js';
import { connectWs } from '../../helpers/ws.js';

const d = useDaemon();

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, d.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const program = (name: string) => JSON.stringify({ name, command: process.execPath, args: [fixture('forever.js')], autostart: false });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

test('a POST from another site is refused with 403 and creates nothing; the dashboard\'s own origin and the CLI (no Origin) create', async () => {
  const host = new URL(d.url).host;
  const evil = await send('POST', '/api/v1/programs', { ...FORM, origin: 'https://evil.example' }, program('csrf'));
  assert.equal(evil.status, 403, evil.text);
  assert.match(evil.text, /web page at https:\/\/evil\.example is refused/);
  for (const origin of ['null', `http://${host}.evil.example`, 'file:///tmp/x.html']) {
    assert.equal((await send('POST', '/api/v1/system/shutdown', { origin })).status, 403, origin);
  }
  const list = await d.request('GET', '/api/v1/programs');
  assert.deepEqual(list.body, [], 'nothing was created');

  assert.equal((await send('POST', '/api/v1/programs', { ...FORM, origin: `http://${host}` }, program('dashboard'))).status, 201);
  assert.equal((await send('POST', '/api/v1/programs', FORM, program('cli'))).status, 201);
  // A proxy in front of svcd that says which host the browser asked it for.
  const proxied = await send('POST', '/api/v1/programs', { ...FORM, origin: 'https://svc.example.com', 'x-forwarded-host': 'svc.example.com' }, program('proxied'));
  assert.equal(proxied.status, 201, proxied.text);
});

test('a request addressed to a host name other than localhost (DNS rebinding) is refused; IP addresses and localhost are served', async () => {
  const port = new URL(d.url).port;
  const rebound = await send('GET', '/api/v1/programs', { host: `attacker.example:${port}` });
  assert.equal(rebound.status, 403);
  assert.match(rebound.text, /Host 'attacker\.example:\d+' is not an address of this svcd/);
  // Same-origin for the rebinding page, so its Origin matches: the Host decides.
  assert.equal((await send('POST', '/api/v1/programs', { ...FORM, host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` }, program('rebound'))).status, 403);
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `app.localhost:${port}`, `[::1]:${port}`]) {
    assert.equal((await send('GET', '/api/v1/programs', { host })).status, 200, host);
  }
});

test('the log WebSocket refuses another site\'s page with 4403 before any line is sent', async () => {
  // A program that prints all the time: a stream that is served shows a line at once.
  const created = await d.request('POST', '/api/v1/programs', { name: 'ws-target', command: process.execPath, args: [fixture('ticker.js'), '20'] });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  const probe = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${id}`, { origin: 'https://evil.example' });
  const line = new Promise<string>((resolve) => probe.ws.once('message', (data: Buffer) => resolve(`a log line was streamed: ${data.toString('utf8')}`)));
  const outcome = await Promise.race([probe.closed, line]);
  probe.ws.terminate();
  if (typeof outcome === 'string') assert.fail(outcome);
  const closed = outcome;
  assert.equal(closed.code, 4403);
  assert.match(closed.reason, /web page at https:\/\/evil\.example/);
  // The same stream for the CLI (no Origin) is served.
  const own = connectWs(`${d.url.replace(/^http/, 'ws')}/ws?id=${id}`);
  await new Promise<void>((resolve) => own.ws.once('message', () => resolve()));
  own.ws.terminate();
});

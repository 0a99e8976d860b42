import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { useDaemon, REPO } from '../../helpers/daemon.js';

const SECRET = 'web-route-secret';
const d = useDaemon({ config: `[server]\nport = 0\nauth_secret = "${SECRET}"\n` });
const asset = readdirSync(join(REPO, 'dist', 'web', 'assets')).find((f) => /^app-.*\.js$/.test(f)) ?? 'missing';

test('the dashboard page is served at / without a credential, never cached stale', async () => {
  const res = await fetch(`${d.url}/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await res.text();
  assert.ok(html.includes(`/assets/${asset}`), 'the page names the hashed script');
  // fetch() adds `cache-control: no-cache` to a conditional request unless one is given (a browser revalidating sends max-age=0).
  const again = await fetch(`${d.url}/`, { headers: { 'if-none-match': res.headers.get('etag') ?? '', 'cache-control': 'max-age=0' } });
  assert.equal(again.status, 304);
});

// The suite's dispatcher opens one connection per request (pipelining 0), and undici asserts when
// such a connection ends under a gzip body still being decoded: these requests use a pool.
const pooled = { dispatcher: new Agent() } as RequestInit;

test('hashed assets are served without a credential as immutable; other names are 404 JSON', async () => {
  const res = await fetch(`${d.url}/assets/${asset}`, pooled);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(res.headers.get('content-encoding'), 'gzip', 'fetch accepts gzip: the precompressed copy');
  assert.equal(res.headers.get('vary'), 'Accept-Encoding');
  const decoded = Buffer.from(await res.arrayBuffer()); // read before the next request: an unread body holds its connection
  const plain = await fetch(`${d.url}/assets/${asset}`, { ...pooled, headers: { 'accept-encoding': 'identity' } });
  assert.equal(plain.headers.get('content-encoding'), null);
  assert.deepEqual(decoded, Buffer.from(await plain.arrayBuffer()));
  for (const path of ['/assets/nope.js', '/assets/..%2Fpackage.json', '/assets/.hidden.js', '/assets/app.exe', `/assets/${asset}.gz`]) {
    const miss = await fetch(`${d.url}${path}`);
    assert.equal(miss.status, 404, path);
    assert.equal(((await miss.json()) as { status: string }).status, 'error');
  }
});

test('the API next to it still needs the credential', async () => {
  assert.equal((await fetch(`${d.url}/api/v1/programs`)).status, 401);
  assert.equal((await fetch(`${d.url}/index.html`)).status, 401);
});

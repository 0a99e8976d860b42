import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UndiciDownloader } from '../../../controllers/ota/downloader.js';
import { systemClock } from '../../../reconciler/clock.js';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { artifactServer, opensslAvailable, selfSignedCert } from '../../helpers/artifact-server.js';
import { sha } from '../../helpers/ota-fakes.js';
import { eventually } from '../../helpers/daemon.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-download-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const BODY = Buffer.from('#!/bin/sh\nexec sleep 1000\n'.repeat(100));
const req = (url: string, over: Partial<Parameters<UndiciDownloader['download']>[0]> = {}) => ({
  url,
  file: join(dir, `dl-${Math.random()}`),
  timeoutMs: 10_000,
  maxBytes: 1_000_000,
  signal: new AbortController().signal,
  ...over,
});

test('http on loopback: streamed to the file (0600) with its SHA-256; redirects followed; errors named', async () => {
  const server = await artifactServer();
  const dl = new UndiciDownloader(systemClock, null);
  try {
    server.routes.set('/app', { body: BODY });
    server.routes.set('/latest', { redirect: '/app' });
    server.routes.set('/gone', { status: 410 });
    const progress: [number, number | null][] = [];
    const r = req(server.url('/latest'), { onProgress: (received, total) => progress.push([received, total]) });
    const got = await dl.download(r);
    assert.deepEqual(got, { digest: sha(BODY), bytes: BODY.length });
    assert.deepEqual(progress.at(-1), [BODY.length, BODY.length], 'progress ends at the announced size');
    assert.ok(progress.every(([n], i) => i === 0 || n > progress[i - 1][0]), 'and only grows');
    assert.deepEqual(readFileSync(r.file), BODY);
    assert.equal(statSync(r.file).mode & 0o777, 0o600);
    await assert.rejects(dl.download(req(server.url('/gone'))), /HTTP 410 from http:\/\/127\.0\.0\.1:\d+\/gone/);
    await assert.rejects(dl.download(req(server.url('/app'), { maxBytes: 100 })), /more than ota.max_download_bytes \(100\)/);
    server.routes.set('/elsewhere', { redirect: 'http://example.com/app' });
    await assert.rejects(dl.download(req(server.url('/elsewhere'))), /refusing http:\/\/example.com\/app: https is required/);
  } finally {
    await dl.close();
    await server.close();
  }
});

test("a destination folder that does not exist is named before any request is made", async () => {
  const server = await artifactServer();
  const dl = new UndiciDownloader(systemClock, null);
  try {
    server.routes.set('/app', { body: BODY });
    const missing = join(dir, 'not-made-yet');
    await assert.rejects(dl.download(req(server.url('/app'), { file: join(missing, '.app.svc-ota-1.download') })), new RegExp(`the destination's directory ${missing} does not exist`));
    assert.equal(server.hits.get('/app') ?? 0, 0, 'nothing was fetched');
    const file = join(dir, `plain-${Math.random()}`);
    await dl.download(req(server.url('/app'), { file }));
    await assert.rejects(dl.download(req(server.url('/app'), { file: join(file, 'app.download') })), /is not a directory|does not exist/);
  } finally {
    await dl.close();
    await server.close();
  }
});

test('download_timeout cuts a slow transfer; cancelling aborts it', async () => {
  const server = await artifactServer();
  const clock = new FakeClock();
  const dl = new UndiciDownloader(clock, null);
  try {
    server.routes.set('/slow', { body: BODY, chunkDelayMs: 50 });
    const slow = dl.download(req(server.url('/slow'), { timeoutMs: 5000 }));
    await eventually(() => server.hits.get('/slow'), 5000, 'the transfer to start');
    clock.advance(5000);
    await assert.rejects(slow, /download_timeout \(5 s\) exceeded/);
    const abort = new AbortController();
    const cancelled = dl.download(req(server.url('/slow'), { signal: abort.signal }));
    abort.abort();
    await assert.rejects(cancelled, /cancelled/);
  } finally {
    await dl.close();
    await server.close();
  }
});

test('a download_timeout longer than setTimeout allows (over 24.8 days) does not cut the transfer at once', async () => {
  const server = await artifactServer();
  const dl = new UndiciDownloader(systemClock, null);
  try {
    server.routes.set('/app', { body: BODY, chunkDelayMs: 5 });
    const got = await dl.download(req(server.url('/app'), { timeoutMs: 31_536_000_000 }));
    assert.equal(got.digest, sha(BODY));
  } finally {
    await dl.close();
    await server.close();
  }
});

test('with download_timeout = 0, a server that sends nothing is still given up on after the idle timeout', async () => {
  const server = await artifactServer();
  const dl = new UndiciDownloader(systemClock, null, 300);
  try {
    server.routes.set('/stalled', { body: BODY, chunkDelayMs: 60_000 });
    await assert.rejects(dl.download(req(server.url('/stalled'), { timeoutMs: 0 })), /the server sent nothing for 0\.3 s/);
  } finally {
    await dl.close();
    await server.close();
  }
});

test('https with a self-signed certificate: refused by default, accepted with the CA bundle', async (t) => {
  if (!opensslAvailable()) {
    if (process.env.CI) assert.fail('openssl is required under CI: run scripts/install-system-deps.sh');
    return t.skip('openssl is not installed (scripts/install-system-deps.sh installs it)');
  }
  const tls = selfSignedCert(dir);
  const server = await artifactServer({ tls });
  const plain = new UndiciDownloader(systemClock, null);
  const trusted = new UndiciDownloader(systemClock, readFileSync(tls.certFile, 'utf8'));
  try {
    server.routes.set('/app', { body: BODY });
    await assert.rejects(plain.download(req(server.url('/app'))), /self-signed certificate|SELF_SIGNED/i);
    const r = req(server.url('/app'));
    assert.equal((await trusted.download(r)).digest, sha(BODY));
    assert.ok(existsSync(r.file));
  } finally {
    await plain.close();
    await trusted.close();
    await server.close();
  }
});

test('a transfer cut short of its Content-Length says how much of it came', async () => {
  const server = await artifactServer();
  const dl = new UndiciDownloader(systemClock, null);
  try {
    server.routes.set('/short', { body: BODY, announce: BODY.length + 100 });
    // How much was read before the error depends on when the close is seen.
    const cut = new RegExp(`the transfer broke off after \\d+ of the ${BODY.length + 100} bytes announced \\(Content-Length\\): UND_ERR_SOCKET`);
    await assert.rejects(dl.download(req(server.url('/short'))), cut);
  } finally {
    await dl.close();
    await server.close();
  }
});

test('a refused connection is a readable error', async () => {
  const server = await artifactServer();
  const url = server.url('/app');
  await server.close();
  const dl = new UndiciDownloader(systemClock, null);
  await assert.rejects(dl.download(req(url)), /ECONNREFUSED/);
  await dl.close();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, useDaemon } from '../helpers/daemon.js';
import { bigYamlStack } from '../helpers/big-stack.js';

const d = useDaemon();
const big = bigYamlStack(5000); // about 800 KB, the size of finding 9

const peakRssMiB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${d.proc.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Runs `work` while polling /health back to back; returns how many polls completed meanwhile. */
async function healthPollsDuring<T>(work: Promise<T>): Promise<{ result: T; polls: number }> {
  let done = false;
  let polls = 0;
  const poller = (async () => {
    while (!done) {
      await fetch(`${d.url}/health`).then((r) => r.text());
      if (!done) polls++;
    }
  })();
  const result = await work.finally(() => (done = true));
  await poller;
  return { result, polls };
}

const putYaml = (text: string) =>
  fetch(`${d.url}/api/v1/stack?dry_run=true`, { method: 'PUT', headers: { 'content-type': 'application/yaml' }, body: text }).then(async (r) => ({ status: r.status, body: await r.json() }));

test('an 800 KB YAML stack is parsed off the event loop: the API answers meanwhile', async () => {
  const { result, polls } = await healthPollsDuring(putYaml(big));
  assert.equal(result.status, 200, JSON.stringify(result.body).slice(0, 300));
  assert.equal(result.body.lines.length, 5000);
  // Parsed on the main thread, the loop is blocked for the whole parse (seconds): no poll completes.
  assert.ok(polls >= 5, `/health answered ${polls} times during the apply`);
});

test('four large stacks in parallel, two of them parse bombs: bounded memory, the API answers', async () => {
  // 1 MB of `[1,1,1,...]` needs about 430 MiB to parse with the yaml library: over the worker's cap.
  const bomb = `services: [${'1,'.repeat(500_000)}1]\n`;
  const { result, polls } = await healthPollsDuring(Promise.all([big, bomb, big, bomb].map((text) => putYaml(text))));
  assert.deepEqual(result.map((r) => r.status), [200, 413, 200, 413], JSON.stringify(result.map((r) => r.body.message ?? r.status)));
  assert.equal(result[1]?.body.message, 'stack.yaml: needs more than 256 MiB to parse; split the stack');
  assert.ok(polls >= 5, `/health answered ${polls} times`);
  // One worker parses one document at a time under a 256 MiB heap cap (before: one bomb alone
  // added its 430 MiB to svcd's own heap, and the four together stalled the API for seconds).
  assert.ok(peakRssMiB() < 500, `peak RSS ${Math.round(peakRssMiB())} MiB`);
  assert.equal((await fetch(`${d.url}/health`)).status, 200);
});

test('the watched directory parses large files the same way, and refuses files over max_body_bytes', async () => {
  writeFileSync(join(d.root, 'stacks', 'big.yaml'), bigYamlStack(300));
  writeFileSync(join(d.root, 'stacks', 'huge.yaml'), `# ${'x'.repeat(1024 * 1024)}\nservices: []\n`);
  const status = await eventually(async () => {
    const s = (await d.request('GET', '/api/v1/stack/status')).body as { files: { file: string; state: string; message: string | null }[] };
    return s.files.length === 2 ? s : null;
  }, 60_000, 'both stack files handled');
  const byName = new Map(status.files.map((f) => [f.file, f]));
  assert.equal(byName.get('big.yaml')?.state, 'ok');
  assert.equal(byName.get('huge.yaml')?.state, 'error');
  assert.equal(byName.get('huge.yaml')?.message, 'huge.yaml: cannot read: larger than 1048576 bytes (server.max_body_bytes)');
  const list = (await d.request('GET', '/api/v1/programs')).body as unknown[];
  assert.equal(list.length, 300);
});

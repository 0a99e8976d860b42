import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDaemon } from '../helpers/daemon.js';

const d = useDaemon();
const ghost = '00000000-0000-4000-8000-000000000000';

const send = async (method: string, path: string, body: string, type = 'application/json') => {
  const res = await fetch(`${d.url}${path}`, { method, headers: { 'content-type': type }, body });
  return { status: res.status, body: (await res.json()) as { status: string; message: string } };
};

async function programId(): Promise<string> {
  const res = await d.request('POST', '/api/v1/programs', { name: `p${Math.random().toString(36).slice(2, 8)}`, command: 'sleep 1000', autostart: false });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

test('JSON nested 10 000 deep is a 400 naming the limit and the position, on every body route', async () => {
  const id = await programId();
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  const inField = `{"name":"a","command":"x","args":${deep}}`;
  const routes: [string, string][] = [
    ['POST', '/api/v1/programs'],
    ['POST', '/api/v1/programs/batch'],
    ['PUT', `/api/v1/programs/${id}`],
    ['POST', `/api/v1/programs/${id}/signal`],
    ['PUT', '/api/v1/stack'],
  ];
  for (const [method, path] of routes) {
    for (const body of [deep, inField]) {
      const res = await send(method, path, body);
      assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.message, /^JSON line 1 column \d+: nesting deeper than 64 levels$/);
    }
  }
  // 64 levels are fine (the schema then names the field).
  const ok = await send('POST', '/api/v1/programs', `{"name":"a","command":"x","args":${'['.repeat(63)}${']'.repeat(63)}}`);
  assert.equal(ok.status, 400);
  assert.match(ok.body.message, /args\[0\]: must be string/);
});

test('a YAML alias bomb, deep YAML and deep TOML stacks are 400s', async () => {
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`), 'services: *h'].join('\n');
  const alias = await send('PUT', '/api/v1/stack', bomb, 'application/yaml');
  assert.equal(alias.status, 400);
  assert.equal(alias.body.message, 'stack.yaml: too many alias expansions (more than 100)');
  const flow = await send('PUT', '/api/v1/stack', `services: ${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/yaml');
  assert.equal(flow.status, 400);
  assert.equal(flow.body.message, 'stack.yaml:1:75: nesting deeper than 64 levels');
  const block = await send('PUT', '/api/v1/stack', `services:\n${Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i + 1)}- `).join('\n')}x\n`, 'application/yaml');
  assert.equal(block.status, 400);
  assert.match(block.body.message, /^stack\.yaml(:\d+:\d+)?: nesting deeper than 64 levels$/);
  const toml = await send('PUT', '/api/v1/stack', `[[services]]\nname = "a"\ncommand = "x"\nargs = ${'['.repeat(5000)}${']'.repeat(5000)}\n`, 'application/toml');
  assert.equal(toml.status, 400);
  assert.equal(toml.body.message, 'stack.toml:4:72: nesting deeper than 64 levels');
  const dotted = await send('PUT', '/api/v1/stack', `${Array.from({ length: 100 }, (_, i) => `k${i}`).join('.')} = 1\n`, 'application/toml');
  assert.equal(dotted.status, 400);
  assert.equal(dotted.body.message, 'stack.toml: nesting deeper than 64 levels');
});

test('bodies that are not JSON are a 415 naming the Content-Type; JSON, none and curl form default are read', async () => {
  for (const type of ['text/plain', 'application/xml', 'application/octet-stream', 'multipart/form-data; boundary=x', 'application/yaml']) {
    const res = await send('POST', '/api/v1/programs', '{"name":"t","command":"x"}', type);
    assert.equal(res.status, 415, type);
    assert.equal(res.body.message, `Content-Type: expected application/json, got '${type}'`);
  }
  const stack = await send('PUT', '/api/v1/stack', '{"services":[]}', 'text/plain');
  assert.equal(stack.status, 415);
  assert.match(stack.body.message, /^Content-Type: expected application\/json, application\/toml or application\/yaml, got 'text\/plain'$/);
  for (const type of ['application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'application/merge-patch+json']) {
    const res = await send('POST', '/api/v1/programs/batch', `{"target_ids":["${ghost}"],"action":{"type":"Start"}}`, type);
    assert.equal(res.status, 200, type);
  }
});

test('a JSON body with a UTF-8 byte order mark is read without it; a compressed body is a 415 naming Content-Encoding', async () => {
  const created = await send('POST', '/api/v1/programs', `\uFEFF{"name":"bom${Math.random().toString(36).slice(2, 8)}","command":"sleep 1000","autostart":false}`);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const bad = await send('POST', '/api/v1/programs', '\uFEFF{"name":}');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.message, 'JSON line 1 column 9: value expected', 'positions count from after the mark');
  for (const [method, path] of [['POST', '/api/v1/programs'], ['PUT', '/api/v1/stack']] as const) {
    const res = await fetch(`${d.url}${path}`, { method, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{}' });
    const body = (await res.json()) as { message: string };
    assert.equal(res.status, 415, `${method} ${path}: ${JSON.stringify(body)}`);
    assert.equal(body.message, "Content-Encoding: 'gzip' is not accepted; send the body uncompressed");
  }
});

test('a body that is not valid UTF-8 is a 400 (each bad byte was stored as U+FFFD), JSON and stack alike; nothing is created', async () => {
  const name = `latin${Math.random().toString(36).slice(2, 8)}`;
  // `café` in Latin-1: 0xE9 alone is no UTF-8 character.
  const latin1 = Buffer.concat([Buffer.from(`{"name":"${name}","command":"sleep 1000","autostart":false,"env":{"CITY":"caf`), Buffer.from([0xe9]), Buffer.from('"}}')]);
  const stack = Buffer.concat([Buffer.from(`[[services]]\nname = "${name}"\ncommand = "sleep 1000"\nautostart = false\nenv = { CITY = "caf`), Buffer.from([0xe9]), Buffer.from('" }\n')]);
  for (const [method, path, type, body] of [['POST', '/api/v1/programs', 'application/json', latin1], ['PUT', '/api/v1/stack', 'application/toml', stack]] as const) {
    const res = await fetch(`${d.url}${path}`, { method, headers: { 'content-type': type }, body });
    const answer = (await res.json()) as { message: string };
    assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(answer)}`);
    assert.match(answer.message, /^body: is not valid UTF-8/);
  }
  const list = (await d.request('GET', '/api/v1/programs')).body as { name: string }[];
  assert.equal(list.find((p) => p.name === name), undefined, 'nothing was created');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseStream } from '../../../../api/watch/sse-stream.js';

void test('messages are data lines of JSON, one event each', () => {
  const sse = new SseStream(() => assert.fail('not dropped'));
  sse.retry(1000);
  sse.send({ type: 'removed', id: 'x' });
  sse.body.end();
  assert.equal(String(sse.body.read()), 'retry: 1000\n\ndata: {"type":"removed","id":"x"}\n\n');
});

void test('a client that does not read is dropped at the limit, not buffered further', () => {
  let drops = 0;
  const sse = new SseStream(() => drops++, 4096);
  for (let i = 0; i < 1000; i++) sse.send({ type: 'system', system: null });
  assert.equal(drops, 1);
  assert.ok(sse.body.writableLength + sse.body.readableLength <= 4096, 'bounded');
});

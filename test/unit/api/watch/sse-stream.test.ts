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
  const frame = 'data: {"type":"system","system":null}\n\n'.length;
  for (let i = 0; i < 1000; i++) sse.send({ type: 'system', system: null });
  assert.equal(drops, 1);
  assert.ok(sse.body.writableLength + sse.body.readableLength <= 4096 + frame, 'bounded: the limit plus one message');
});

void test('a first message larger than the limit (a big snapshot) still goes out', () => {
  let drops = 0;
  const sse = new SseStream(() => drops++, 1024);
  sse.send({ type: 'removed', id: 'x'.repeat(5000) });
  assert.equal(drops, 0);
  sse.send({ type: 'removed', id: 'y' });
  assert.equal(drops, 1, 'the next one finds 5 KB unread');
});

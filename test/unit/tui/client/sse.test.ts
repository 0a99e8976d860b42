import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseParser } from '../../../../tui/client/sse.js';

void test('events end at a blank line; data may arrive in any pieces', () => {
  const p = new SseParser();
  assert.deepEqual(p.push('retry: 1000\n\nda'), []);
  assert.deepEqual(p.push('ta: {"a":1}\n'), []);
  assert.deepEqual(p.push('\ndata: {"b":2}\n\ndata:x\n'), ['{"a":1}', '{"b":2}']);
  assert.deepEqual(p.push('\n'), ['x']);
});

void test('CRLF lines, comments and other fields; several data lines join with a newline', () => {
  const p = new SseParser();
  assert.deepEqual(p.push(': keep-alive\r\n\r\nevent: x\r\nid: 4\r\ndata: one\r\ndata: two\r\n\r\n'), ['one\ntwo']);
  assert.deepEqual(p.push('\n\n'), [], 'blank lines without data are no event');
});

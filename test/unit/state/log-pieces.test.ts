import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogPieces } from '../../../state/log-pieces.js';
import { parseLine as parseWebLine } from '../../../web/src/api/log-follow.js';
import { parseLine as parseCliLine } from '../../../tui/client/log-socket.js';

void test('the pieces of a long line come back as the one line the file holds, per source, whatever is interleaved', () => {
  const p = new LogPieces();
  assert.equal(p.push({ source: 'stdout', content: 'aaa', ts: 1, continues: true }), null);
  assert.deepEqual(p.push({ source: 'stderr', content: 'oops', ts: 2 }), { source: 'stderr', content: 'oops', ts: 2 }, 'another source is not held up');
  assert.equal(p.push({ source: 'stdout', content: 'bbb', ts: 3, continues: true }), null);
  assert.deepEqual(p.push({ source: 'stdout', content: 'c', ts: 4 }), { source: 'stdout', content: 'aaabbbc', ts: 4 });
  assert.deepEqual(p.push({ source: 'stdout', content: 'next', ts: 5 }), { source: 'stdout', content: 'next', ts: 5 }, 'nothing left over');
});

void test('a line that never ends is shown in pieces of the maximum, not held for ever', () => {
  const p = new LogPieces(6);
  assert.equal(p.push({ source: 'stdout', content: 'abc', continues: true }), null);
  assert.deepEqual(p.push({ source: 'stdout', content: 'def', continues: true }), { source: 'stdout', content: 'abcdef' });
  assert.equal(p.push({ source: 'stdout', content: 'gh', continues: true }), null);
  assert.deepEqual(p.push({ source: 'stdout', content: 'i' }), { source: 'stdout', content: 'ghi' });
});

void test('the CLI and the web dashboard read continues from the stream (it was dropped, and each piece shown as a line)', () => {
  const raw = '{"source":"stdout","content":"x","ts":5,"continues":true}';
  assert.deepEqual(parseWebLine(raw), { source: 'stdout', content: 'x', ts: 5, continues: true });
  assert.deepEqual(parseCliLine(Buffer.from(raw)), { source: 'stdout', content: 'x', ts: 5, continues: true });
  assert.deepEqual(parseCliLine(Buffer.from('{"source":"stdout","content":"x","ts":5}')), { source: 'stdout', content: 'x', ts: 5 });
});

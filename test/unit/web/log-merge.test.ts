import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SnapshotThenStream } from '../../../web/src/logic/log-merge.js';
import type { LogLine } from '../../../web/src/api/types.js';

const out = (content: string): LogLine => ({ source: 'stdout', content });

function merged() {
  const view: string[] = [];
  const merge = new SnapshotThenStream((lines, replace) => {
    if (replace) view.length = 0;
    view.push(...lines.map((l) => l.content));
  });
  return { view, merge };
}

test('lines streamed while the tail is on its way are kept after it, once', () => {
  const { view, merge } = merged();
  merge.begin();
  merge.streamed(out('3')); // written before the tail was read: in it too
  merge.streamed(out('4')); // written after: only on the socket
  merge.snapshot([out('1'), out('2'), out('3')]);
  assert.deepEqual(view, ['1', '2', '3', '4'], 'the tail did not wipe 4, and 3 is shown once');
  merge.streamed(out('5'));
  assert.deepEqual(view, ['1', '2', '3', '4', '5']);
});

test('a stream behind the file: lines the tail showed that arrive after it are dropped, new ones kept', () => {
  const { view, merge } = merged();
  merge.begin();
  merge.snapshot([out('1'), out('2')]);
  merge.streamed(out('1'));
  merge.streamed(out('2'));
  merge.streamed(out('3'));
  assert.deepEqual(view, ['1', '2', '3']);
});

test('a reconnect starts again from a new tail; a failed tail shows what was streamed meanwhile', () => {
  const { view, merge } = merged();
  merge.begin();
  merge.snapshot([out('a')]);
  merge.begin();
  merge.streamed(out('b'));
  merge.failed();
  assert.deepEqual(view, ['a', 'b']);
  merge.streamed(out('c'));
  assert.deepEqual(view, ['a', 'b', 'c']);
});

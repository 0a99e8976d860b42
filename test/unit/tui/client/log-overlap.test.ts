import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogLine } from '../../../../api/wire.js';
import { afterTail } from '../../../../tui/client/log-overlap.js';

const out = (...contents: string[]): LogLine[] => contents.map((content) => ({ source: 'stdout', content }));
const err = (...contents: string[]): LogLine[] => contents.map((content) => ({ source: 'stderr', content }));
const texts = (lines: LogLine[]) => lines.map((l) => `${l.source}:${l.content}`);

test('svc logs -f: lines streamed before the tail was read are printed once (seen under load: 102,103,101,102,103,104)', () => {
  // --tail 2 read after ticks 101-103 had arrived on the stream: 101 is older than the tail, 102 and 103 are in it.
  assert.deepEqual(texts(afterTail(out('tick 102', 'tick 103'), out('tick 101', 'tick 102', 'tick 103', 'tick 104'))), ['stdout:tick 104']);
  assert.deepEqual(texts(afterTail(out('tick 100', 'tick 101'), out('tick 101', 'tick 102'))), ['stdout:tick 102']);
  assert.deepEqual(texts(afterTail(out('a', 'b', 'c'), out('b', 'c'))), []);
});

test('svc logs -f: streamed lines the tail does not hold are all kept, in order', () => {
  assert.deepEqual(texts(afterTail(out('tick 99', 'tick 100'), out('tick 101', 'tick 102'))), ['stdout:tick 101', 'stdout:tick 102']);
  assert.deepEqual(texts(afterTail([], out('x', 'y'))), ['stdout:x', 'stdout:y'], '--tail 0: nothing can be told');
  assert.deepEqual(texts(afterTail(out('x'), [])), []);
});

test('svc logs -f: stdout and stderr are matched each against its own tail; the arrival order stays', () => {
  const tail = [...out('o1', 'o2'), ...err('e1')];
  const early = [out('o2')[0], err('e1')[0], err('e2')[0], out('o3')[0]];
  assert.deepEqual(texts(afterTail(tail, early)), ['stderr:e2', 'stdout:o3']);
  // A stderr line equal to a stdout tail line is not taken for it.
  assert.deepEqual(texts(afterTail(out('same'), err('same'))), ['stderr:same']);
});

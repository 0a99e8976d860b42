import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogLine } from '../../../../api/wire.js';
import { TailOverlap } from '../../../../tui/client/log-overlap.js';

const out = (...contents: string[]): LogLine[] => contents.map((content) => ({ source: 'stdout', content }));
const err = (...contents: string[]): LogLine[] => contents.map((content) => ({ source: 'stderr', content }));
const texts = (lines: LogLine[]) => lines.map((l) => `${l.source}:${l.content}`);
const afterTail = (tail: LogLine[], early: LogLine[]) => new TailOverlap(tail).early(early);
/** What is printed of `tail`, `early`, then `later` lines streamed one by one. */
const follow = (tail: LogLine[], early: LogLine[], later: LogLine[]) => {
  const overlap = new TailOverlap(tail);
  return texts([...overlap.early(early), ...later.filter((l) => overlap.keep(l))]);
};

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

test('svc logs -f: a stream a moment behind the file still repeats none of the tail (seen under load: 1,2,2,3)', () => {
  // Tick 2 was in the file when the tail was read, and reached the stream only afterwards.
  assert.deepEqual(follow(out('tick 1', 'tick 2'), [], out('tick 2', 'tick 3', 'tick 4')), ['stdout:tick 3', 'stdout:tick 4']);
  // Further behind: both tail lines come again, then the new ones.
  assert.deepEqual(follow(out('tick 1', 'tick 2'), [], out('tick 1', 'tick 2', 'tick 3')), ['stdout:tick 3']);
  // Part of the tail early, the rest later.
  assert.deepEqual(follow(out('a', 'b', 'c'), out('a'), out('b', 'c', 'd')), ['stdout:d']);
  // Not behind: the first streamed line is new, and so is everything after it, even a repeat of the tail.
  assert.deepEqual(follow(out('tick 1', 'tick 2'), [], out('tick 3', 'tick 2')), ['stdout:tick 3', 'stdout:tick 2']);
  // Caught up early: later lines are all new.
  assert.deepEqual(follow(out('x', 'y'), out('y'), out('x', 'y')), ['stdout:x', 'stdout:y']);
  // Each source on its own: a stderr line behind does not hold stdout back.
  assert.deepEqual(follow([...out('o1'), ...err('e1')], [], [err('e1')[0], out('o2')[0], err('e2')[0]]), ['stdout:o2', 'stderr:e2']);
});

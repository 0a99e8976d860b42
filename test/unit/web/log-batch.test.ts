import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogBatch } from '../../../web/src/logic/log-batch.js';
import type { LogLine } from '../../../web/src/api/types.js';

const out = (content: string): LogLine => ({ source: 'stdout', content });

/** A batch on a hand-driven scheduler: `tick()` runs what was scheduled. */
function batched(cap = 100) {
  const flushes: { lines: string[]; replace: boolean }[] = [];
  let queued: (() => void) | null = null;
  let scheduled = 0;
  const batch = new LogBatch(
    (lines, replace) => flushes.push({ lines: lines.map((l) => l.content), replace }),
    (run) => {
      scheduled++;
      queued = run;
    },
    cap,
  );
  const tick = () => {
    const run = queued;
    queued = null;
    run?.();
  };
  return { batch, flushes, tick, scheduled: () => scheduled };
}

test('lines arriving one message each between two ticks reach the view as one update, in order', () => {
  const { batch, flushes, tick, scheduled } = batched();
  for (let i = 1; i <= 50; i++) batch.push([out(String(i))], false);
  assert.equal(scheduled(), 1, 'one update scheduled for the 50 lines');
  assert.equal(flushes.length, 0, 'nothing before the tick');
  tick();
  assert.equal(flushes.length, 1);
  assert.deepEqual(flushes[0]?.lines, Array.from({ length: 50 }, (_, i) => String(i + 1)));
  batch.push([out('51')], false);
  tick();
  assert.deepEqual(flushes[1], { lines: ['51'], replace: false });
  tick();
  assert.equal(flushes.length, 2, 'nothing pending, nothing sent');
});

test('a fresh tail replaces what was waiting; lines after it follow it in the same update', () => {
  const { batch, flushes, tick } = batched();
  batch.push([out('old')], false);
  batch.push([out('t1'), out('t2')], true);
  batch.push([out('new')], false);
  tick();
  assert.deepEqual(flushes, [{ lines: ['t1', 't2', 'new'], replace: true }]);
});

test('at most cap lines wait: the newest (the view would keep no more)', () => {
  const { batch, flushes, tick } = batched(3);
  for (const c of ['1', '2', '3', '4', '5']) batch.push([out(c)], false);
  tick();
  assert.deepEqual(flushes, [{ lines: ['3', '4', '5'], replace: false }]);
});

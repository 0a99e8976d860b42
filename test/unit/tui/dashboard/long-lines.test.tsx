import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import LogPane from '../../../../tui/dashboard/components/LogPane.js';
import { clip } from '../../../../tui/dashboard/components/text.js';
import { LINE_KEEP, keptLine } from '../../../../tui/dashboard/hooks/use-logs.js';
import type { LogLine } from '../../../../api/wire.js';
import { plain } from '../../../helpers/ink-frames.js';

afterEach(() => cleanup());

const out = (content: string): LogLine => ({ source: 'stdout', content, ts: 0 });

void test('a line of 200 kB is kept as its first LINE_KEEP characters; a progress line as what follows its last carriage return', () => {
  assert.equal(keptLine(out('y'.repeat(200_000))).content, 'y'.repeat(LINE_KEEP));
  const progress = out(`${Array.from({ length: 5000 }, (_, i) => `\r${i}%`).join('')}\rdone\r`);
  assert.equal(keptLine(progress).content, 'done');
  const short = out('short line');
  assert.equal(keptLine(short), short, 'a short line is the same object');
});

void test('clip looks at what fits only: cells, not characters; colours kept and closed', () => {
  assert.equal(clip('hello', 10), 'hello');
  assert.equal(clip('hello world', 6), 'hello…');
  assert.equal(clip('日本語日本語', 7), '日本語…');
  assert.equal(clip('\x1b[31mred text\x1b[0m', 4), '\x1b[31mred…\x1b[0m');
  assert.equal(clip('\x1b[31mred\x1b[0m', 3), '\x1b[31mred\x1b[0m', 'what fits keeps its own reset');
  for (let width = 1; width < 30; width++) assert.ok(stringWidth(clip(`ab${'日本語'.repeat(20)}`, width)) <= width, `width ${width}`);
});

void test('the log pane cuts every long line with an ellipsis, CJK at the edge included (it looked whole)', () => {
  const lines = ['a', 'ab', 'abc', 'abcd'].map((p) => out(`${p}${'日本語'.repeat(30)}`));
  lines.push(out('y'.repeat(200_000)));
  const view = { lines, mode: 'live' as const, pending: 0 };
  const { lastFrame } = render(<LogPane name="cjk" view={view} scroll={0} paused={false} height={8} width={41} />);
  const rows = plain(lastFrame()).split('\n').slice(1, 6);
  assert.equal(rows.length, 5);
  for (const row of rows) {
    assert.ok(row.endsWith('…'), `cut without an ellipsis: ${row}`);
    assert.ok(stringWidth(row) <= 41, `${stringWidth(row)} cells: ${row}`);
  }
});

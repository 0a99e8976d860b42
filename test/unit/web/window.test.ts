import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scrollToRow, windowRange } from '../../../web/src/logic/window.js';
import { controlOwnsKey, moveCursor, tableCommand, globalCommand, isTyping } from '../../../web/src/logic/keys.js';
import { selectRange, toggle, toggleAll, prune } from '../../../web/src/logic/selection.js';

test('500 rows at 36 px in a 720 px box: about 30 rows rendered, padding keeps the scroll height', () => {
  const top = windowRange(0, 720, 36, 500);
  assert.equal(top.start, 0);
  assert.ok(top.end - top.start <= 30, `rendered ${top.end - top.start}`);
  assert.equal(top.padTop + (top.end - top.start) * 36 + top.padBottom, 500 * 36);
  const mid = windowRange(36 * 250, 720, 36, 500);
  assert.ok(mid.start <= 250 && mid.end >= 250 + 20, JSON.stringify(mid));
  assert.ok(mid.end - mid.start <= 40);
  assert.equal(mid.padTop, mid.start * 36);
  const end = windowRange(36 * 500, 720, 36, 500);
  assert.equal(end.end, 500);
  assert.equal(end.padBottom, 0);
  assert.deepEqual(windowRange(0, 720, 36, 0), { start: 0, end: 0, padTop: 0, padBottom: 0 });
});

test('scrollToRow moves as little as possible and not at all when the row is in view', () => {
  assert.equal(scrollToRow(0, 360, 36, 3), 0);
  assert.equal(scrollToRow(0, 360, 36, 10), 36 * 11 - 360);
  assert.equal(scrollToRow(36 * 20, 360, 36, 5), 36 * 5);
});

test('table keys: arrows and j/k move, PgDn by a page, clamped; typing in a box is not a command', () => {
  assert.deepEqual(tableCommand('j', 10), { kind: 'move', by: 1 });
  assert.deepEqual(tableCommand('PageUp', 10), { kind: 'move', by: -10 });
  assert.deepEqual(tableCommand('x', 10), { kind: 'action', action: 'Stop' });
  assert.equal(tableCommand('q', 10), null);
  assert.equal(moveCursor(-1, { kind: 'move', by: 1 }, 5), 1);
  assert.equal(moveCursor(3, { kind: 'move', by: 10 }, 5), 4);
  assert.equal(moveCursor(3, { kind: 'edge', to: 'first' }, 5), 0);
  assert.equal(moveCursor(0, { kind: 'move', by: 1 }, 0), -1);
  assert.deepEqual(globalCommand('3'), { kind: 'page', to: 'stack' });
  assert.equal(isTyping({ tagName: 'INPUT', type: 'search' }), true);
  assert.equal(isTyping({ tagName: 'INPUT', type: 'checkbox' }), false);
  assert.equal(isTyping({ tagName: 'DIV' }), false);
});

test('Enter and Space on a button, box or link inside the table belong to it, not to the table', () => {
  assert.equal(controlOwnsKey('Enter', { tagName: 'BUTTON' }), true);
  assert.equal(controlOwnsKey('Enter', { tagName: 'A' }), true);
  assert.equal(controlOwnsKey(' ', { tagName: 'BUTTON' }), true);
  assert.equal(controlOwnsKey(' ', { tagName: 'INPUT' }), true);
  // Enter on a mark box still opens the row; other keys stay table commands.
  assert.equal(controlOwnsKey('Enter', { tagName: 'INPUT' }), false);
  assert.equal(controlOwnsKey('ArrowDown', { tagName: 'BUTTON' }), false);
  assert.equal(controlOwnsKey(' ', { tagName: 'TD' }), false);
  assert.equal(controlOwnsKey('Enter', null), false);
});

test('marks: toggle, shift-range in display order, all shown, and removed programs dropped', () => {
  const order = ['a', 'b', 'c', 'd'];
  assert.deepEqual([...toggle(new Set(['a']), 'a')], []);
  assert.deepEqual([...selectRange(new Set(), order, 'b', 'd')].sort(), ['b', 'c', 'd']);
  assert.deepEqual([...selectRange(new Set(), order, null, 'c')], ['c']);
  assert.deepEqual([...toggleAll(new Set(['a']), order)].sort(), order);
  assert.deepEqual([...toggleAll(new Set(order), order)], []);
  const kept = new Set(['a']);
  assert.equal(prune(kept, new Set(order)), kept);
  assert.deepEqual([...prune(new Set(['a', 'z']), new Set(order))], ['a']);
});

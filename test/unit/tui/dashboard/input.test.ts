import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleInput, splitKeys } from '../../../../tui/dashboard/state/input.js';
import { INITIAL_STATE } from '../../../../tui/dashboard/state/model.js';
import { reduce } from '../../../../tui/dashboard/state/reduce.js';
import { nextUptimeChange } from '../../../../tui/dashboard/hooks/use-now.js';
import { uptime } from '../../../../tui/dashboard/components/text.js';
import { program } from '../../../helpers/fake-dashboard-client.js';

const layout = { tableRows: 3, logRows: 10, logLines: 100, eventTypes: 10 };

void test('a burst of plain keys is split into one key press each', () => {
  assert.deepEqual(splitKeys('/ti', {}), [['/', {}], ['t', {}], ['i', {}]]);
  assert.deepEqual(splitKeys('a\rb\x7f\t', {}), [['a', {}], ['', { return: true }], ['b', {}], ['', { backspace: true }], ['', { tab: true }]]);
  assert.deepEqual(splitKeys('x\x03', {}), [['x', {}], ['c', { ctrl: true }]]);
  assert.deepEqual(splitKeys('q', {}), [['q', {}]]);
  assert.deepEqual(splitKeys('', { upArrow: true }), [['', { upArrow: true }]]);
  assert.deepEqual(splitKeys('ab', { meta: true }), [['ab', { meta: true }]], 'alt+keys are not a burst');
});

void test('every key of a burst acts, effects in order, nothing after quit', () => {
  const s = reduce(INITIAL_STATE, { type: 'programs', programs: [program('web'), program('timer')] });
  const typed = handleInput(s, '/ti', {}, layout);
  assert.equal(typed.state.mode, 'filter');
  assert.equal(typed.state.draft, 'ti');
  const acted = handleInput(s, 'sqr', {}, layout);
  assert.deepEqual(acted.effects.map((e) => e.kind), ['batch', 'quit']);
});

void test('watch messages: a program entry replaces its row or adds one; removed drops it and its mark', () => {
  let s = reduce(INITIAL_STATE, { type: 'programs', programs: [program('web'), program('db', 'Stopped')] });
  s = reduce(s, { type: 'program', program: program('db', 'Running') });
  assert.deepEqual(s.programs.map((p) => `${p.name} ${p.status}`), ['web Running', 'db Running']);
  s = reduce(s, { type: 'program', program: program('api') });
  assert.equal(s.programs.length, 3);
  s = reduce(s, { type: 'toggle-mark' });
  const marked = [...s.marks][0];
  s = reduce(s, { type: 'removed', id: marked });
  assert.equal(s.marks.size, 0);
  assert.ok(!s.programs.some((p) => p.id === marked));
  assert.equal(reduce(s, { type: 'removed', id: 'unknown' }), s, 'an unknown id changes nothing');
});

void test('the row shown selected under a filter stays selected when the filter is cleared', () => {
  let s = reduce(INITIAL_STATE, { type: 'programs', programs: [program('api'), program('web'), program('timer')] });
  s = handleInput(s, '/tim\r', {}, layout).state;
  assert.equal(s.selectedId, program('timer').id);
  s = handleInput(s, '', { escape: true }, layout).state;
  assert.equal(s.filter, '');
  assert.equal(s.selectedId, program('timer').id);
});

void test('uptimes change text every second in the first minute, every minute under a day, then hourly', () => {
  const now = 10_000_000_000;
  assert.equal(nextUptimeChange([], now), null);
  assert.equal(nextUptimeChange([now - 1500], now), now + 500);
  assert.equal(nextUptimeChange([now - 65_000], now), now + 55_000);
  assert.equal(nextUptimeChange([now - 2 * 3_600_000 - 10_000], now), now + 50_000);
  assert.equal(nextUptimeChange([now - 2 * 86_400_000], now), now + 3_600_000);
  assert.equal(nextUptimeChange([now - 2 * 86_400_000, now - 1500], now), now + 500, 'the soonest wins');
});

void test('the table shows seconds in the first minute, then whole minutes, then hours and days', () => {
  assert.deepEqual([0, 59.9, 60, 3599, 3600 + 61, 2 * 86_400 + 3600].map(uptime), ['0s', '59s', '1m', '59m', '1h1m', '2d1h']);
});

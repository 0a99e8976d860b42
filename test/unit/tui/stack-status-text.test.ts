import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stackStatusText } from '../../../tui/cli/stack-status-text.js';

const at = Date.UTC(2024, 0, 2, 3, 4, 5);

test('svc stack status counts the programs a file has, not the programs its last apply pruned', () => {
  const text = stackStatusText({
    dir: '/srv/stacks',
    watching: true,
    files: [
      { file: 'a.toml', state: 'ok', message: null, lines: ['unchanged a1', 'pruned a2', 'pruned a3'], at },
      { file: 'b.toml', state: 'ok', message: null, lines: ['pruned b1', 'pruned b2'], at },
      { file: 'c.toml', state: 'ok', message: null, lines: ['created c1', 'updated c2 (restart)'], at },
    ],
  });
  assert.deepEqual(text.split('\n'), [
    'watched directory /srv/stacks (watching)',
    '  a.toml  ok  2024-01-02 03:04:05Z  (1 program)',
    '  b.toml  ok  2024-01-02 03:04:05Z  (0 programs)',
    '  c.toml  ok  2024-01-02 03:04:05Z  (2 programs)',
  ]);
});

test('svc stack status shows a file\'s warning (a service another file lists too) under it', () => {
  const text = stackStatusText({
    dir: '/srv/stacks',
    watching: true,
    files: [{ file: 'a.toml', state: 'ok', message: null, lines: ['unchanged web'], at, warning: 'listed in another stack file too: web (also in b.toml; b.toml owns it: the file applied last)' }],
  });
  assert.deepEqual(text.split('\n'), [
    'watched directory /srv/stacks (watching)',
    '  a.toml  ok  2024-01-02 03:04:05Z  (1 program)',
    '    warning: listed in another stack file too: web (also in b.toml; b.toml owns it: the file applied last)',
  ]);
});

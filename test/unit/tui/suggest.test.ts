import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestReadOnly } from '../../../tui/cli/suggest.js';

test('an unknown command is corrected only to a read-only command', () => {
  assert.equal(suggestReadOnly('lsit'), 'list');
  assert.equal(suggestReadOnly('stauts'), 'status');
  assert.equal(suggestReadOnly('evnets'), 'events');
  for (const word of ['restat', 'stpo', 'strat', 'delet', 'shutdwn', 'rmm', 'xyzzy']) {
    const hint = suggestReadOnly(word);
    assert.ok(hint === null || ['list', 'ls', 'status', 'info', 'describe', 'show', 'logs', 'events', 'check', 'export', 'storage', 'audit', 'completion', 'ui', 'help'].includes(hint), `${word} -> ${hint}`);
  }
  assert.equal(suggestReadOnly('xyzzy'), null);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { environmentAssignment, execLine, execWord, unitName } from '../../../../stacks/export/systemd/escape.js';

test('ExecStart words: $ and % doubled, quotes and C escapes for anything but plain characters', () => {
  assert.equal(execLine(['/usr/bin/node', 'server.js', '--port=8080']), '/usr/bin/node server.js --port=8080');
  assert.equal(execWord('two words'), '"two words"');
  assert.equal(execWord('$HOME'), '"$$HOME"');
  assert.equal(execWord('50%'), '"50%%"');
  assert.equal(execWord('say "hi"\\n'), '"say \\"hi\\"\\\\n"');
  assert.equal(execWord('line\nbreak\ttab'), '"line\\nbreak\\ttab"');
  assert.equal(execWord(''), '""');
  assert.equal(execWord(';'), '\\;');
  assert.equal(execWord("it's"), '"it\'s"');
});

test('Environment= assignments are quoted whole; $ stays (no expansion there), % is doubled', () => {
  assert.equal(environmentAssignment('PRICE', '$5 and 50%'), '"PRICE=$5 and 50%%"');
  assert.equal(environmentAssignment('Q', 'a "b"\\'), '"Q=a \\"b\\"\\\\"');
});

test('unit names: @ (a template instance in systemd) and other characters are escaped as systemd-escape does', () => {
  assert.equal(unitName('web', '', 'service'), 'web.service');
  assert.equal(unitName('worker@eu', 'svc-', 'timer'), 'svc-worker\\x40eu.timer');
});

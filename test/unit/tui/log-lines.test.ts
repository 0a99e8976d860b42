import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLogLine } from '../../../tui/cli/log-lines.js';

test('a log line with name, source and the time svcd read it (ts in Unix seconds)', () => {
  const line = { source: 'stderr' as const, content: 'boom', ts: 1_700_000_000.25 };
  assert.equal(formatLogLine(line, { name: 'web', source: true, timestamps: true }), '2023-11-14T22:13:20.250Z web | err | boom');
  assert.equal(formatLogLine(line, { source: false, timestamps: false }), 'boom');
  // Lines read back from the files have no time: '-' keeps the column.
  assert.equal(formatLogLine({ source: 'stdout', content: 'x' }, { name: 'a', source: false, timestamps: true }), `${'-'.padEnd(24)} a | x`);
});

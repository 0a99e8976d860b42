import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsQuery } from '../../../tui/cli/commands/events.js';

void test('svc events maps flags to API parameters, newest first', () => {
  const q = eventsQuery({ limit: '20', from: '100', to: '200', type: 'process_exit', exitCode: '137', q: 'oom' }, 'abc');
  assert.equal(q.toString(), 'order=desc&limit=20&program_id=abc&from=100&to=200&event_type=process_exit&exit_code=137&q=oom');
  assert.equal(eventsQuery({ limit: '50' }, undefined).toString(), 'order=desc&limit=50');
  assert.throws(() => eventsQuery({ limit: '50', exitCode: 'x' }, undefined), /--exit-code: must be a whole number/);
});

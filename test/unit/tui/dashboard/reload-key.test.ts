import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleKey } from '../../../../tui/dashboard/state/keys.js';
import { INITIAL_STATE } from '../../../../tui/dashboard/state/model.js';
import { outcomeMessage, reduce } from '../../../../tui/dashboard/state/reduce.js';
import { program } from '../../../helpers/fake-dashboard-client.js';

const layout = { tableRows: 3, logRows: 10, logLines: 100, eventTypes: 10 };

void test('R reloads the selected program (a batch Reload, no question asked, like r)', () => {
  const s = reduce(INITIAL_STATE, { type: 'programs', programs: [program('web')] });
  const r = handleKey(s, 'R', {}, layout);
  assert.equal(r.effect?.kind, 'batch');
  if (r.effect?.kind !== 'batch') return;
  assert.deepEqual(r.effect.pending.action, { type: 'Reload', payload: null });
  assert.deepEqual(r.effect.pending.names, ['web']);
});

void test('the reload message names a restart with downtime, and a failed reload is an error with the reason', () => {
  const plain = outcomeMessage([{ id: '1', name: 'plain', ok: true, status: 'Running', note: 'no health check: restarted, with downtime' }], 'Reload');
  assert.deepEqual(plain, { kind: 'info', text: 'reloaded plain; plain: no health check: restarted, with downtime' });
  const failed = outcomeMessage([{ id: '2', name: 'web', ok: false, error: 'reload failed: pid 5 is Unhealthy; stopping pid 5; pid 4 keeps running' }], 'Reload');
  assert.equal(failed.kind, 'error');
  assert.match(failed.text, /web: reload failed: .*pid 4 keeps running/);
});

void test('a reload still under way when svcd answered is not reported as reloaded: the message says what svcd said, as svc reload prints it', () => {
  const pending = outcomeMessage(
    [
      { id: '1', name: 'web', ok: true, status: 'Healthy', pid: 4, error: 'still reloading (successor pid 5) after 100 s; the controller keeps trying' },
      { id: '2', name: 'api', ok: true, status: 'Healthy', pid: 7, note: 'pid 7 is Healthy and took over from pid 6' },
    ],
    'Reload',
  );
  assert.deepEqual(pending, { kind: 'info', text: 'reloaded api; web: still reloading (successor pid 5) after 100 s; the controller keeps trying; api: pid 7 is Healthy and took over from pid 6' });
});

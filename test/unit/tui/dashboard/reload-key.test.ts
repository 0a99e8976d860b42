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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleKey, type KeyInfo } from '../../../../tui/dashboard/state/keys.js';
import { INITIAL_STATE, type UiState } from '../../../../tui/dashboard/state/model.js';
import { reduce } from '../../../../tui/dashboard/state/reduce.js';
import { visiblePrograms, windowTop } from '../../../../tui/dashboard/state/view.js';
import { statusColor, TONE_COLOR } from '../../../../tui/dashboard/state/status.js';
import { statusTone as webTone } from '../../../../web/src/logic/status.js';
import { PROGRAM_STATUSES } from '../../../../state/status.js';
import { program } from '../../../helpers/fake-dashboard-client.js';

const layout = { tableRows: 3, logRows: 10, logLines: 100, eventTypes: 10 };
const loaded = (): UiState =>
  reduce(INITIAL_STATE, { type: 'programs', programs: [program('web'), program('api', 'Fatal', { restarts: 5 }), program('db', 'Stopped'), program('worker', 'Backoff')] });
const press = (s: UiState, keys: (string | [string, KeyInfo])[]) => {
  let effect;
  for (const k of keys) {
    const [input, key] = typeof k === 'string' ? [k, {}] : k;
    const r = handleKey(s, input, key, layout);
    s = r.state;
    effect = r.effect ?? effect;
  }
  return { s, effect };
};
const names = (s: UiState) => visiblePrograms(s.programs, s.mode === 'filter' ? s.draft : s.filter, s.sort).map((p) => p.name);

void test('status colours follow the status families, as in the web dashboard (a Scheduled cron program is good, not idle)', () => {
  assert.deepEqual(['Running', 'Healthy', 'Scheduled', 'Starting', 'Backoff', 'Stopping', 'Unhealthy', 'Fatal', 'Stopped', 'Exited'].map(statusColor), [
    'green', 'green', 'green', 'yellow', 'yellow', 'yellow', 'red', 'red', 'gray', 'gray',
  ]);
  for (const status of PROGRAM_STATUSES) assert.equal(statusColor(status), TONE_COLOR[webTone(status)], status);
});

void test('sort: o cycles the column, O reverses; status puts trouble first', () => {
  const s = loaded();
  assert.deepEqual(names(s), ['api', 'db', 'web', 'worker']);
  assert.deepEqual(names(press(s, ['o']).s), ['api', 'worker', 'web', 'db']);
  assert.deepEqual(names(press(s, ['o', 'O']).s), ['db', 'web', 'worker', 'api']);
});

void test('filter: typed text narrows live, Enter applies, Esc clears', () => {
  const typing = press(loaded(), ['/', 'w', 'o']).s;
  assert.equal(typing.mode, 'filter');
  assert.deepEqual(names(typing), ['worker']);
  const applied = press(typing, [['', { backspace: true }], ['', { return: true }]]).s;
  assert.equal(applied.filter, 'w');
  assert.deepEqual(names(applied), ['web', 'worker']);
  assert.equal(press(applied, ['/', ['', { escape: true }]]).s.filter, '');
});

void test('filter: a group name matches its programs, as in svc list GROUP:* and the web table', () => {
  const s = reduce(INITIAL_STATE, { type: 'programs', programs: [program('web-1', 'Running', { group_name: 'frontend' }), program('api', 'Running', { group_name: 'backend' }), program('db', 'Stopped')] });
  assert.deepEqual(names(press(s, ['/', 'f', 'r', 'o', 'n', 't']).s), ['web-1']);
  assert.deepEqual(names(press(s, ['/', 'E', 'N', 'D']).s), ['api', 'web-1'], 'any case: backEND and frontEND');
});

void test('marks: space marks and moves on; actions target the marked set', () => {
  const { s, effect } = press(loaded(), [' ', ' ', 's']);
  assert.equal(s.marks.size, 2);
  assert.equal(effect?.kind, 'batch');
  if (effect?.kind !== 'batch') return;
  assert.deepEqual(effect.pending.names.sort(), ['api', 'db']);
  assert.deepEqual(effect.pending.action, { type: 'Start', payload: null });
});

void test('stop, force stop and remove ask first; n cancels, y runs', () => {
  const asked = press(loaded(), ['x']);
  assert.equal(asked.s.mode, 'confirm');
  assert.equal(asked.effect, undefined);
  assert.equal(press(asked.s, ['n']).s.mode, 'normal');
  const yes = press(asked.s, ['y']);
  assert.deepEqual(yes.effect, { kind: 'batch', pending: { ids: [program('api').id], names: ['api'], action: { type: 'Stop', payload: null } } });
  const force = press(loaded(), ['X', 'y']).effect;
  assert.deepEqual(force?.kind === 'batch' && force.pending.action, { type: 'Stop', payload: { force: true } });
  const rm = press(loaded(), ['d', 'Y']).effect;
  assert.deepEqual(rm?.kind === 'batch' && rm.pending.action, { type: 'Remove', payload: null });
});

void test('Enter at a [y/N] question is no: nothing runs', () => {
  for (const k of ['x', 'X', 'd']) {
    const { s, effect } = press(loaded(), [k, ['', { return: true }]]);
    assert.equal(effect, undefined, `${k} then Enter`);
    assert.equal(s.mode, 'normal');
    assert.deepEqual(s.message, { kind: 'info', text: 'cancelled' });
  }
  const kill = press(loaded(), ['k', '4', ['', { return: true }]]);
  assert.equal(kill.effect, undefined);
  assert.equal(kill.s.mode, 'normal');
});

void test('signal picker: hup runs at once, kill asks first', () => {
  const hup = press(loaded(), ['k', '1']);
  assert.deepEqual(hup.effect?.kind === 'batch' && hup.effect.pending.action, { type: 'Signal', payload: { signal: 'hup' } });
  const kill = press(loaded(), ['k', ['', { downArrow: true }], ['', { return: true }]]);
  assert.equal(kill.s.mode, 'confirm');
  assert.equal(kill.effect, undefined);
  const sent = press(kill.s, ['y']).effect;
  assert.deepEqual(sent?.kind === 'batch' && sent.pending.action, { type: 'Signal', payload: { signal: 'kill' } });
});

void test('the table window follows the selection', () => {
  assert.equal(windowTop(0, 5, 3, 10), 3);
  assert.equal(windowTop(3, 1, 3, 10), 1);
  assert.equal(windowTop(8, 9, 3, 10), 7);
  const s = press(loaded(), [['', { downArrow: true }], ['', { downArrow: true }], ['', { downArrow: true }]]).s;
  assert.equal(s.top, 1);
  assert.equal(names(s)[3], 'worker');
});

void test('a failed list poll marks the link down; the next list reconnects', () => {
  const down = reduce(loaded(), { type: 'disconnected', error: 'connection refused', retryMs: 2000 });
  assert.deepEqual(down.connection, { ok: false, error: 'connection refused', retryMs: 2000 });
  const back = reduce(down, { type: 'programs', programs: [] });
  assert.equal(back.connection.ok, true);
  assert.equal(back.message?.text, 'reconnected to svcd');
});

void test('q and Ctrl-C quit', () => {
  assert.deepEqual(press(loaded(), ['q']).effect, { kind: 'quit' });
  assert.deepEqual(press(loaded(), [['c', { ctrl: true }]]).effect, { kind: 'quit' });
});

void test('a removed program hands the selection to the row that takes its place, not to the first row', () => {
  const onWeb = press(loaded(), [['', { downArrow: true }], ['', { downArrow: true }]]).s;
  assert.equal(onWeb.selectedId, program('web').id);
  const gone = reduce(onWeb, { type: 'removed', id: program('web').id });
  assert.equal(gone.selectedId, program('worker').id, 'the next row');
  const asked = press(gone, ['d']).s;
  assert.deepEqual(asked.pending?.names, ['worker'], 'd asks about the row now shown selected');
  const last = reduce(gone, { type: 'removed', id: program('worker').id });
  assert.equal(last.selectedId, program('db').id, 'the last row gone: the one above');
  // svcd restarted without it: the snapshot does the same.
  const snapshot = reduce(onWeb, { type: 'programs', programs: [program('api', 'Fatal'), program('db', 'Stopped'), program('worker', 'Backoff')] });
  assert.equal(snapshot.selectedId, program('worker').id);
  assert.equal(reduce(onWeb, { type: 'removed', id: program('api').id }).selectedId, program('web').id, 'another row gone: the selection stays');
});

void test("an action the credential's role lacks is refused at its key, before any y/N or signal picker", () => {
  const as = (role: UiState['role']) => ({ ...loaded(), role });
  for (const key of ['s', 'r', 'x', 'X', 'd', 'k']) {
    const viewer = press(as('viewer'), [key]);
    assert.equal(viewer.s.mode, 'normal', key);
    assert.equal(viewer.effect, undefined, key);
    assert.equal(viewer.s.message?.kind, 'error', key);
  }
  assert.equal(press(as('viewer'), ['x']).s.message?.text, 'stop needs the operator role; this credential is a viewer');
  // An operator controls programs but may not remove them.
  assert.equal(press(as('operator'), ['x']).s.mode, 'confirm');
  assert.equal(press(as('operator'), ['d']).s.message?.text, 'remove needs the admin role; this credential is an operator');
  assert.equal(press(as('admin'), ['d']).s.mode, 'confirm');
  // No auth (or a role svcd did not say): svcd's own answers decide.
  assert.equal(press(as(null), ['d']).s.mode, 'confirm');
});

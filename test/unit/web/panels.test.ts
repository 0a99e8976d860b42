import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleOf, visiblePanels } from '../../../web/src/logic/panels.js';
import { allowedActions, may } from '../../../web/src/logic/permissions.js';
import { parseRoute, routeHash } from '../../../web/src/logic/routes.js';
import { columnsOf, listOf, cellText } from '../../../web/src/extensions/shapes.js';

test('without the ui route there are no panels; with it, known panels the role may open', () => {
  assert.deepEqual(visiblePanels(null, 'admin'), []);
  const info = { panels: [{ id: 'tokens' }, { id: 'audit', title: 'Audit' }, { id: 'notify' }, { id: 'future' }, { id: 'tokens' }] };
  assert.deepEqual(visiblePanels(info, 'admin'), [
    { id: 'tokens', title: 'Tokens' },
    { id: 'audit', title: 'Audit' },
    { id: 'notify', title: 'Notify' },
  ]);
  assert.deepEqual(visiblePanels(info, 'operator'), [{ id: 'notify', title: 'Notify' }]);
  assert.deepEqual(visiblePanels(info, 'viewer'), []);
  assert.deepEqual(visiblePanels({ panels: [{ id: 'notify', min_role: 'admin' }] }, 'operator'), []);
  // Open mode (no auth) has no role and sees every panel the daemon lists.
  assert.equal(visiblePanels(info, null).length, 3);
});

test('the role: open mode none, the admin secret admin, a token its own role', () => {
  assert.equal(roleOf(null), null);
  assert.equal(roleOf({ auth_required: false }), null);
  assert.equal(roleOf({ auth_required: true, mode: 'secret' }), 'admin');
  assert.equal(roleOf({ auth_required: true, mode: 'token', role: 'Operator' }), 'operator');
  assert.equal(roleOf({ auth_required: true, mode: 'token' }), 'viewer');
});

test('routes round-trip through the URL fragment; unknown ones open the table', () => {
  for (const hash of ['#/programs', '#/programs/abc', '#/programs/abc/logs', '#/events', '#/stack', '#/system', '#/x/tokens']) assert.equal(routeHash(parseRoute(hash)), hash);
  assert.deepEqual(parseRoute(''), { page: 'programs' });
  assert.deepEqual(parseRoute('#/nope'), { page: 'programs' });
  assert.deepEqual(parseRoute('#/programs/abc/bogus'), { page: 'program', id: 'abc', tab: 'overview' });
  // A malformed escape (a mistyped or cut link) is a page that is not found, not an exception
  // that blanked the whole dashboard until a reload.
  assert.deepEqual(parseRoute('#/programs/%E0%A4%A/logs'), { page: 'program', id: '%E0%A4%A', tab: 'logs' });
  assert.deepEqual(parseRoute('#/x/%zz'), { page: 'extension', panel: '%zz' });
  assert.deepEqual(parseRoute('#/programs/a%2Fb'), { page: 'program', id: 'a/b', tab: 'overview' });
});

test('extension bodies: a bare list or one inside an object; time-like columns first', () => {
  assert.deepEqual(listOf([1], 'tokens'), [1]);
  assert.deepEqual(listOf({ tokens: [2] }, 'tokens'), [2]);
  assert.deepEqual(listOf({ items: [3] }, 'tokens'), [3]);
  assert.deepEqual(listOf(null, 'tokens'), []);
  assert.deepEqual(columnsOf([{ actor: 'a', ts: 1, action: 'x' }, { extra: true }]), ['ts', 'actor', 'action', 'extra']);
  assert.equal(cellText('ts', 0), '1970-01-01 00:00:00');
  assert.equal(cellText('created_at', 1700000000000), '2023-11-14 22:13:20');
  assert.equal(cellText('detail', { a: 1 }), '{"a":1}');
});

test('controls follow the daemon permission table: operators control programs, only admins remove, edit and apply stacks', () => {
  const all = ['Start', 'Stop', 'Restart', 'Signal', 'Remove'] as const;
  assert.deepEqual(allowedActions('viewer', all), []);
  assert.deepEqual(allowedActions('operator', all), ['Start', 'Stop', 'Restart', 'Signal']);
  assert.deepEqual(allowedActions('admin', all), [...all]);
  assert.deepEqual(allowedActions(null, all), [...all], 'open mode may do everything');
  assert.equal(may('operator', 'program.create'), true);
  assert.equal(may('operator', 'program.update'), false);
  assert.equal(may('operator', 'stack.apply'), false);
  assert.equal(may('viewer', 'program.control'), false);
  assert.equal(may(null, 'system.shutdown'), true);
});

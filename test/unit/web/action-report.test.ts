import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportOf } from '../../../web/src/logic/action-report.js';

const ok = (name: string) => ({ id: name, name, ok: true });
const failed = (name: string, error: string) => ({ id: name, name, ok: false, error });

test('an action report names the programs and why each failed', () => {
  assert.deepEqual(reportOf('Stop', [ok('web'), ok('api')]), { kind: 'ok', text: 'stopped web, api' });
  assert.deepEqual(reportOf('Start', [ok('web'), failed('db', 'not found')]), { kind: 'error', text: 'started web; failed db: not found' });
  assert.deepEqual(reportOf('Remove', []), { kind: 'ok', text: 'removed nothing' });
});

test('an action on 500 programs reports the first names and how many more, as the dialog lists them', () => {
  const many = Array.from({ length: 500 }, (_, i) => ok(`p${i}`));
  const report = reportOf('Start', many);
  assert.equal(report.text, `started ${many.slice(0, 12).map((r) => r.name).join(', ')} and 488 more`);
  const mixed = reportOf('Stop', [...many.slice(0, 20), ...Array.from({ length: 30 }, (_, i) => failed(`f${i}`, 'boom'))]);
  assert.equal(mixed.kind, 'error');
  assert.match(mixed.text, /^stopped p0, .*, p11 and 8 more; failed f0: boom; .*; f11: boom and 18 more$/);
});

test('a stop that is not on disk yet (full data disk) says so, as the CLI does', () => {
  const report = reportOf('Stop', [{ id: 'w', name: 'web', ok: true, warning: 'stopped, but not recorded on disk yet (no space left on the data disk /d)' }]);
  assert.deepEqual(report, { kind: 'error', text: 'stopped web; warning: web: stopped, but not recorded on disk yet (no space left on the data disk /d)' });
});

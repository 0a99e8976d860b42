import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleOf } from '../../../../controllers/os/process-role.js';

const root = '/srv/svc';

test('a reaction run is a side process to end at start-up, with or without a program (system events have none)', () => {
  assert.deepEqual(roleOf({ SVC_ROOT: root, SVC_REACTION: 'on-fatal', SVC_PROGRAM_ID: 'p1' }, root), { programId: 'p1', role: 'hook' });
  assert.deepEqual(roleOf({ SVC_ROOT: root, SVC_REACTION: 'on-startup', SVC_PROGRAM_ID: '' }, root), { programId: '', role: 'hook' });
  assert.equal(roleOf({ SVC_ROOT: '/other', SVC_REACTION: 'on-startup', SVC_PROGRAM_ID: '' }, root), null, 'another installation\'s run');
});

test('programs, hooks, probes and cron runs are told apart; a process without a program id is not svc\'s', () => {
  assert.deepEqual(roleOf({ SVC_ROOT: root, SVC_PROGRAM_ID: 'p1' }, root), { programId: 'p1', role: 'program' });
  assert.deepEqual(roleOf({ SVC_ROOT: root, SVC_PROGRAM_ID: 'p1', SVC_HOOK: 'pre_start' }, root), { programId: 'p1', role: 'hook' });
  assert.deepEqual(roleOf({ SVC_ROOT: root, SVC_PROGRAM_ID: 'p1', SVC_PROBE: '1' }, root), { programId: 'p1', role: 'probe' });
  assert.deepEqual(roleOf({ SVC_ROOT: root, SVC_PROGRAM_ID: 'p1', SVC_CRON_SLOT: '42' }, root), { programId: 'p1', role: 'cron', cronSlot: '42' });
  assert.equal(roleOf({ SVC_ROOT: root, SVC_PROGRAM_ID: '' }, root), null);
  assert.equal(roleOf({ SVC_ROOT: root, SVC_HOOK: 'pre_start' }, root), null);
});

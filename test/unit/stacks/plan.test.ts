import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyLine, planStack, type PlanOptions } from '../../../stacks/plan.js';
import type { DesiredService } from '../../../stacks/validate-stack.js';
import type { ProgramConfig, ProgramRecord } from '../../../state/program.js';

const NOW = 1_700_000_000_000;
let ids = 0;
const opts = (extra: Partial<PlanOptions> = {}): PlanOptions => ({ prune: { kind: 'none' }, now: NOW, newId: () => `id-${++ids}`, ...extra });
const want = (config: Partial<ProgramConfig> & { name: string }): DesiredService => ({ config: { command: 'run', source: 'stack:a.toml', ...config }, label: `services[0] (name=${config.name})` });
const stored = (config: Partial<ProgramConfig> & { name: string }, run: 'running' | 'stopped' = 'running'): ProgramRecord => ({
  id: `rec-${config.name}`,
  config: { command: 'run', source: 'stack:a.toml', ...config },
  intent: { run, start_seq: 0, restart_seq: 3, force: false },
  revision: 7,
  created_at: 1,
  updated_at: 1,
});
const lines = (desired: DesiredService[], existing: ProgramRecord[], o = opts()) => planStack(desired, existing, o).entries.map(applyLine);

test('a new service is created with a running intent (stopped when autostart=false); a cron schedule is active', () => {
  const plan = planStack([want({ name: 'web' }), want({ name: 'quiet', autostart: false }), want({ name: 'job', cron: '* * * * *' })], [], opts());
  assert.deepEqual(plan.entries.map(applyLine), ['created web', 'created quiet', 'created job']);
  assert.deepEqual(plan.change.put.map((r) => r.intent.run), ['running', 'stopped', 'running']);
  assert.equal(plan.change.put[0]?.created_at, NOW);
  assert.deepEqual(plan.change.del, []);
});

test('an identical config is unchanged and writes nothing, whatever the key order', () => {
  const existing = stored({ name: 'db', env: { B: '2', A: '1' }, args: ['x'] });
  const plan = planStack([want({ args: ['x'], env: { A: '1', B: '2' }, name: 'db' })], [existing], opts());
  assert.deepEqual(plan.entries.map(applyLine), ['unchanged db']);
  assert.deepEqual(plan.change, { put: [], del: [] });
});

test('a process-field change restarts a running program in the same write (restart_seq bumped)', () => {
  const plan = planStack([want({ name: 'api', args: ['--port', '81'] })], [stored({ name: 'api', args: ['--port', '80'] })], opts());
  assert.deepEqual(plan.entries.map(applyLine), ['updated api (restart)']);
  const [record] = plan.change.put;
  assert.equal(record?.intent.restart_seq, 4);
  assert.equal(record?.revision, 8);
  assert.deepEqual(record?.config.args, ['--port', '81']);
});

test('a non-process change updates without restart; a stopped program is never restarted', () => {
  assert.deepEqual(lines([want({ name: 'api', startsecs: 3 })], [stored({ name: 'api' })]), ['updated api']);
  const plan = planStack([want({ name: 'api', command: 'other' })], [stored({ name: 'api' }, 'stopped')], opts());
  assert.deepEqual(plan.entries.map(applyLine), ['updated api']);
  assert.equal(plan.change.put[0]?.intent.restart_seq, 3);
});

test('taking over a program with another source is an update (source changes), no restart', () => {
  assert.deepEqual(lines([want({ name: 'web' })], [stored({ name: 'web', source: 'cli:add' })]), ['updated web']);
});

test('prune removes only programs owned by this stack (its source and its includes)', () => {
  const existing = [
    stored({ name: 'keep' }),
    stored({ name: 'old-job' }),
    stored({ name: 'from-include', source: 'include:lib/common.toml' }),
    stored({ name: 'by-api', source: 'stack:api' }),
    stored({ name: 'by-cli', source: 'cli:add' }),
    stored({ name: 'other-file', source: 'stack:b.toml' }),
    { ...stored({ name: 'no-source' }), config: { name: 'no-source', command: 'x' } },
  ];
  const sources = new Set(['stack:a.toml', 'include:lib/common.toml']);
  const plan = planStack([want({ name: 'keep' })], existing, opts({ prune: { kind: 'owned', sources } }));
  assert.deepEqual(plan.entries.map(applyLine), ['unchanged keep', 'pruned from-include', 'pruned old-job']);
  assert.deepEqual(plan.change.del.sort(), ['rec-from-include', 'rec-old-job']);
  assert.deepEqual(lines([want({ name: 'keep' })], existing, opts({ prune: { kind: 'none' } })), ['unchanged keep'], 'no prune unless asked');
  const all = planStack([want({ name: 'keep' })], existing, opts({ prune: { kind: 'all' } }));
  assert.deepEqual(all.entries.map(applyLine), ['unchanged keep', 'pruned by-api', 'pruned by-cli', 'pruned from-include', 'pruned no-source', 'pruned old-job', 'pruned other-file'], 'the whole desired state: every unlisted program goes');
  assert.equal(all.change.del.length, 6);
});

test('a process-field change is judged on the intent in force after a boot, not the stored one', () => {
  const inForce = (run: 'running' | 'stopped') => opts({ runIntent: () => run });
  // Stopped before the reboot, started at boot by autostart: the change restarts it, and the
  // restart request carries the intent in force (the store stamps it as this run's intent).
  const booted = planStack([want({ name: 'api', command: 'new' })], [stored({ name: 'api' }, 'stopped')], inForce('running'));
  assert.deepEqual(booted.entries.map(applyLine), ['updated api (restart)']);
  assert.equal(booted.change.put[0]?.intent.run, 'running');
  // Running before the reboot, not started at boot (autostart = false): no restart, intent kept.
  const idle = stored({ name: 'api', autostart: false }, 'running');
  const quiet = planStack([want({ name: 'api', autostart: false, command: 'new' })], [idle], inForce('stopped'));
  assert.deepEqual(quiet.entries.map(applyLine), ['updated api']);
  assert.equal(quiet.change.put[0]?.intent, idle.intent, 'the stored intent is not rewritten');
});

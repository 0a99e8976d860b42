import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePlan, planSummary } from '../../../web/src/logic/plan.js';
import { CONTENT_TYPES, defaultSource, formatOfFile, guessFormat } from '../../../web/src/logic/stack-format.js';

test('apply lines become groups; restarts are marked; unknown lines are kept', () => {
  const plan = parsePlan(['created web', 'updated api (restart)', 'updated cfg', 'unchanged db', 'pruned old-job', 'renamed x', '']);
  assert.deepEqual(plan.groups.created, [{ name: 'web', restart: false }]);
  assert.deepEqual(plan.groups.updated, [
    { name: 'api', restart: true },
    { name: 'cfg', restart: false },
  ]);
  assert.deepEqual(plan.groups.pruned, [{ name: 'old-job', restart: false }]);
  assert.deepEqual(plan.groups.unchanged, [{ name: 'db', restart: false }]);
  assert.deepEqual(plan.other, ['renamed x']);
  assert.equal(plan.changes, 4);
  assert.equal(planSummary(plan), '1 to create, 2 to update (1 restart), 1 to prune, 1 unchanged');
  assert.equal(planSummary(plan, true), '1 created, 2 updated (1 restart), 1 pruned, 1 unchanged');
});

test('a plan without writes says so', () => {
  assert.equal(planSummary(parsePlan(['unchanged a', 'unchanged b'])), 'no changes (2 unchanged)');
  assert.equal(planSummary(parsePlan([])), 'no changes');
});

test('the stack format comes from the file name, else from the text', () => {
  assert.equal(formatOfFile('web.TOML'), 'toml');
  assert.equal(formatOfFile('a.yml'), 'yaml');
  assert.equal(formatOfFile('a.json'), 'json');
  assert.equal(formatOfFile('stack.txt'), null);
  assert.equal(guessFormat('  {"services": []}'), 'json');
  assert.equal(guessFormat('# comment\n[[services]]\nname = "a"'), 'toml');
  assert.equal(guessFormat('prune = true'), 'toml');
  assert.equal(guessFormat('services:\n  - name: a\n    command: x'), 'yaml');
  assert.equal(CONTENT_TYPES.toml, 'application/toml');
  assert.equal(defaultSource('web.toml'), 'stack:web.toml');
  assert.equal(defaultSource(null), 'stack:dashboard');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialCronState, type CronRun, type CronState } from '../../../controllers/cron/cron-state.js';
import { planCron, type CronPlanInput } from '../../../controllers/cron/plan.js';
import { compileSchedule } from '../../../controllers/cron/schedule.js';
import { withDefaults, type Intent, type ProgramConfig } from '../../../state/program.js';
import { MIN, T0 } from '../../helpers/cron-harness.js';

const intent: Intent = { run: 'running', start_seq: 0, restart_seq: 0, force: false };
const base: ProgramConfig = { name: 'job', command: 'job', cron: '* * * * *', cron_tz: 'UTC' };
const run = (over: Partial<CronRun> = {}): CronRun => ({ pid: 7, startedAt: T0, slot: T0, trigger: 'schedule', killAt: null, stopsecs: 10, stopping: null, ...over });

function input(state: Partial<CronState>, over: Partial<CronPlanInput> = {}, config: ProgramConfig = base): CronPlanInput {
  return {
    id: 'id-1',
    config: withDefaults(config),
    intent,
    schedule: compileSchedule(config.cron!, config.cron_tz),
    state: { ...initialCronState(intent, undefined), scheduleKey: compileSchedule(config.cron!, config.cron_tz).key, active: true, lastFire: T0, ...state },
    exits: [],
    now: T0,
    random: 0,
    ...over,
  };
}

test('plan: an idle active schedule waits for its next slot and does nothing else', () => {
  const plan = planCron(input({}, { now: T0 + 10_000 }));
  assert.deepEqual(plan.effects, []);
  assert.equal(plan.wakeAt, T0 + MIN);
});

test('plan: a wall clock that went back fires nothing and waits for the slot after the mark', () => {
  const plan = planCron(input({ lastFire: T0 + 5 * MIN }, { now: T0 + MIN + 1 }));
  assert.deepEqual(plan.effects.filter((e) => e.kind === 'spawn'), []);
  assert.equal(plan.wakeAt, T0 + 6 * MIN);
});

test('plan: removal stops runs first and forgets only once they have exited', () => {
  const first = planCron(input({ runs: [run()] }, { config: undefined, intent: undefined, schedule: null }));
  assert.deepEqual(first.effects, [{ kind: 'signal', pid: 7, signal: 'SIGTERM' }]);
  assert.equal(first.wakeAt, T0 + 10_000, 'SIGKILL deadline');
  const second = planCron({ ...input({}), config: undefined, intent: undefined, schedule: null, state: first.next, exits: [{ pid: 7, exit: { code: null, signal: 15 } }], now: T0 + 1000 });
  assert.deepEqual(second.effects.map((e) => e.kind), ['event', 'mark', 'forget']);
});

test('plan: the pure planner never mutates its input state', () => {
  const state = { runs: [run({ killAt: T0 + 1000 })] };
  const i = input(state, { now: T0 + MIN });
  const before = JSON.stringify(i.state);
  planCron(i);
  assert.equal(JSON.stringify(i.state), before);
});

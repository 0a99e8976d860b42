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

test('plan: a daily 02:30 in a zone that skips 02:00-03:00 fires at the shifted instant, then waits for the next day', () => {
  const nightly: ProgramConfig = { ...base, cron: '30 2 * * *', cron_tz: 'Europe/Berlin' };
  const before = Date.UTC(2026, 2, 28, 1, 30); // 02:30 CET on 28 March 2026
  const shifted = Date.UTC(2026, 2, 29, 1, 30); // 03:30 CEST on 29 March: 02:30 does not exist
  const waiting = planCron(input({ lastFire: before }, { now: before + 1000 }, nightly));
  assert.equal(waiting.wakeAt, shifted);
  const plan = planCron(input(waiting.next, { now: shifted }, nightly));
  assert.deepEqual(plan.effects.filter((e) => e.kind === 'spawn'), [{ kind: 'spawn', firing: { slot: shifted, trigger: 'schedule' } }]);
  assert.equal(plan.wakeAt, Date.UTC(2026, 2, 30, 0, 30), 'not the past slot again (a pass with no delay, over and over)');
});

test('plan: after a downtime over a repeated hour, catchup = all replays the 02:30 of that day once', () => {
  const nightly: ProgramConfig = { ...base, cron: '30 2 * * *', cron_tz: 'Europe/Berlin', catchup: 'all', on_overlap: 'queue' };
  // 25 October 2026: 02:30 CEST (00:30Z), then 02:30 CET (01:30Z) after clocks go back; it fires once.
  const plan = planCron(input({ lastFire: Date.UTC(2026, 9, 24, 0, 30) }, { now: Date.UTC(2026, 9, 26, 12) }, nightly));
  const spawned = plan.effects.flatMap((e) => (e.kind === 'spawn' ? [e.firing.slot] : []));
  assert.deepEqual([...spawned, ...plan.next.queue.map((f) => f.slot)], [Date.UTC(2026, 9, 25, 0, 30), Date.UTC(2026, 9, 26, 1, 30)]);
});

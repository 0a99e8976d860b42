import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RESTART_PACE_MS } from '../../../../controllers/process/backoff.js';
import { planProcess, type PlanInput } from '../../../../controllers/process/plan.js';
import { initialProcState, type ProcState } from '../../../../controllers/process/proc-state.js';
import { withDefaults, type Intent } from '../../../../state/program.js';

/**
 * The process planner as a state table, in the manner of Supervisor's test_process.py: each row
 * names an edge of the state diagram (docs/states.md), gives the state and the inputs, and
 * states the next status and the effects. Pure: no clock, no OS.
 */
const NOW = 1_000_000;
const intent = (over: Partial<Intent> = {}): Intent => ({ run: 'running', start_seq: 0, restart_seq: 0, force: false, ...over });
const live = (over: Partial<ProcState> = {}): ProcState => ({
  ...initialProcState(intent()),
  status: 'Running',
  proc: { pid: 42, startTime: 1, startedAt: NOW - 60_000, stopsecs: 10, adopted: false },
  ...over,
});

function input(state: ProcState, over: Partial<PlanInput> & { cfg?: Record<string, unknown> } = {}): PlanInput {
  const { cfg, ...rest } = over;
  return {
    id: 'p',
    config: withDefaults({ name: 'p', command: 'x', ...cfg }),
    intent: intent(),
    run: 'running',
    state,
    now: NOW,
    random: 0.5,
    blockedBy: null,
    stopBlockedBy: null,
    shutdown: false,
    restartRequest: null,
    lastQuickRestartAt: -Infinity,
    reloadTimeoutMs: null,
    successor: null,
    ...rest,
  };
}

const exited = (code: number | null, signal: number | null = null, over: Partial<ProcState> = {}) => live({ exit: { code, signal }, ...over });

const TABLE: { edge: string; given: PlanInput; status: string; effects: string[] }[] = [
  { edge: 'stopped -> starting: spawn when intent is running', given: input(initialProcState(intent())), status: 'Starting', effects: ['spawn'] },
  { edge: 'stopped -> stopped: nothing while intent is stopped', given: input(initialProcState(intent()), { run: 'stopped' }), status: 'Stopped', effects: [] },
  { edge: 'stopped -> starting (waiting): dependencies not up', given: input(initialProcState(intent()), { blockedBy: 'waiting for db' }), status: 'Starting', effects: [] },
  { edge: 'stopped -> starting: a pre_start hook is launched first', given: input(initialProcState(intent()), { cfg: { hooks: { pre_start: 'prep' } } }), status: 'Starting', effects: ['pre_start'] },
  { edge: 'running -> backoff: unexpected exit', given: input(exited(1)), status: 'Backoff', effects: ['event:process_exit', 'event:process_backoff'] },
  { edge: 'running -> exited: expected exit code', given: input(exited(0)), status: 'Exited', effects: ['event:process_exit'] },
  { edge: 'running -> exited: autorestart false', given: input(exited(1), { cfg: { autorestart: 'false' } }), status: 'Exited', effects: ['event:process_exit'] },
  { edge: 'running -> backoff: autorestart true restarts even exit 0', given: input(exited(0), { cfg: { autorestart: 'true' } }), status: 'Backoff', effects: ['event:process_exit', 'event:process_backoff'] },
  {
    edge: 'backoff -> fatal when retry_limit is reached',
    given: input(exited(1, null, { retries: 2, proc: { pid: 42, startTime: 1, startedAt: NOW - 100, stopsecs: 10, adopted: false } }), { cfg: { retry_limit: 2 } }),
    status: 'Fatal',
    effects: ['event:process_exit', 'event:process_fatal'],
  },
  {
    edge: 'running resets retries after startsecs: a crash after a stable run starts a fresh budget',
    given: input(exited(1, null, { retries: 2 }), { cfg: { retry_limit: 2 } }),
    status: 'Backoff',
    effects: ['event:process_exit', 'event:process_backoff'],
  },
  { edge: 'backoff -> backoff: waits until the retry time', given: input(initialProcState(intent()), { state: { ...initialProcState(intent()), status: 'Backoff', nextRetryAt: NOW + 5 } }), status: 'Backoff', effects: [] },
  { edge: 'backoff -> starting: retry time reached', given: input({ ...initialProcState(intent()), status: 'Backoff', nextRetryAt: NOW }), status: 'Starting', effects: ['spawn'] },
  { edge: 'backoff -> stopped: a stop cancels the retry, and says so', given: input({ ...initialProcState(intent()), status: 'Backoff', nextRetryAt: NOW + 5 }, { run: 'stopped' }), status: 'Stopped', effects: ['event:start_cancelled'] },
  { edge: 'backoff -> stopped: a shutdown cancels the retry without an event of its own', given: input({ ...initialProcState(intent()), status: 'Backoff', nextRetryAt: NOW + 5 }, { shutdown: true }), status: 'Stopped', effects: [] },
  { edge: 'starting (waiting) -> stopped: a stop cancels the start, and says so', given: input({ ...initialProcState(intent()), status: 'Starting', waiting: 'waiting for db' }, { run: 'stopped' }), status: 'Stopped', effects: ['event:start_cancelled'] },
  { edge: 'fatal -> starting: a manual start (start_seq) revives it', given: input({ ...initialProcState(intent()), status: 'Fatal' }, { intent: intent({ start_seq: 1 }) }), status: 'Starting', effects: ['spawn'] },
  { edge: 'fatal -> fatal: no start request', given: input({ ...initialProcState(intent()), status: 'Fatal' }), status: 'Fatal', effects: [] },
  { edge: 'running -> stopping: stop sends SIGTERM', given: input(live(), { run: 'stopped' }), status: 'Stopping', effects: ['signal:SIGTERM'] },
  { edge: 'running -> stopping: a forced stop sends SIGKILL', given: input(live(), { run: 'stopped', intent: intent({ run: 'stopped', force: true }) }), status: 'Stopping', effects: ['signal:SIGKILL'] },
  { edge: 'running -> running: the stop gate holds it while a dependant stops', given: input(live(), { run: 'stopped', stopBlockedBy: 'stops after api' }), status: 'Running', effects: [] },
  { edge: 'running -> stopping: daemon shutdown', given: input(live(), { shutdown: true }), status: 'Stopping', effects: ['signal:SIGTERM'] },
  { edge: 'running -> stopping: restart request (restart_seq)', given: input(live(), { intent: intent({ restart_seq: 1 }) }), status: 'Stopping', effects: ['signal:SIGTERM'] },
  { edge: 'running -> stopping: a restart request condition for this pid', given: input(live(), { restartRequest: { pid: 42, reason: 'ota', planned: true } }), status: 'Stopping', effects: ['signal:SIGTERM'] },
  { edge: 'running -> stopping: removed from the store', given: input(live(), { config: undefined, intent: undefined }), status: 'Stopping', effects: ['signal:SIGTERM'] },
  {
    edge: 'stopping -> stopping: SIGKILL at the stopsecs deadline',
    given: input(live({ status: 'Stopping', stopping: { reason: 'stop', deadline: NOW, killed: false } }), { run: 'stopped' }),
    status: 'Stopping',
    effects: ['signal:SIGKILL'],
  },
  {
    edge: 'stopping -> stopped: a planned stop is not a crash',
    given: input(exited(null, 15, { status: 'Stopping', stopping: { reason: 'stop', deadline: NOW + 5, killed: false } }), { run: 'stopped' }),
    status: 'Stopped',
    effects: ['event:process_exit'],
  },
  {
    edge: 'stopping -> backoff: a health stop goes through the restart policy',
    given: input(exited(null, 15, { status: 'Stopping', stopping: { reason: 'health', deadline: NOW + 5, killed: false } })),
    status: 'Backoff',
    effects: ['event:process_exit', 'event:process_backoff'],
  },
  {
    edge: 'exit -> stopped + post_stop hook launched',
    given: input(exited(null, 15, { status: 'Stopping', stopping: { reason: 'stop', deadline: NOW + 5, killed: false } }), { run: 'stopped', cfg: { hooks: { post_stop: 'tidy' } } }),
    status: 'Stopped',
    effects: ['event:process_exit', 'post_stop'],
  },
  {
    edge: 'running -> starting: a quick restart (backoff_secs 0) spawns at once when the daemon-wide pace allows',
    given: input(exited(1), { cfg: { backoff_secs: 0 }, lastQuickRestartAt: NOW - 5 }),
    status: 'Starting',
    effects: ['event:process_exit', 'paced', 'event:process_backoff', 'spawn'],
  },
  {
    edge: 'running -> backoff: a quick restart waits for the daemon-wide pace (another program restarted just now)',
    given: input(exited(1), { cfg: { backoff_secs: 0 }, lastQuickRestartAt: NOW - 2 }),
    status: 'Backoff',
    effects: ['event:process_exit', 'paced', 'event:process_backoff'],
  },
  { edge: 'removed and idle -> forget', given: input(initialProcState(intent()), { config: undefined, intent: undefined }), status: 'Stopped', effects: ['forget'] },
];

for (const row of TABLE) {
  test(row.edge, () => {
    const plan = planProcess(row.given);
    const effects = plan.effects.map((e) => (e.kind === 'event' ? `event:${e.event.event}` : e.kind === 'signal' ? `signal:${e.signal}` : e.kind));
    assert.equal(plan.next.status, row.status);
    assert.deepEqual(effects, row.effects);
  });
}

test('quick restarts are paced daemon-wide: RESTART_PACE_MS after the last one, never under it; slow ones are not paced', () => {
  const quick = planProcess(input(exited(1), { cfg: { backoff_secs: 0 }, lastQuickRestartAt: NOW - 2 }));
  assert.equal(quick.next.nextRetryAt, NOW - 2 + RESTART_PACE_MS);
  assert.deepEqual(quick.effects.find((e) => e.kind === 'paced'), { kind: 'paced', at: NOW - 2 + RESTART_PACE_MS });
  assert.match(quick.effects.map((e) => (e.kind === 'event' ? e.event.msg : '')).join('|'), new RegExp(`retry 1 in ${RESTART_PACE_MS - 2} ms`));
  const first = planProcess(input(exited(1), { cfg: { backoff_secs: 0 } }));
  assert.deepEqual(first.effects.find((e) => e.kind === 'paced'), { kind: 'paced', at: NOW }, 'the first quick restart is not delayed');
  const slow = planProcess(input(exited(1), { cfg: { backoff_secs: 1 }, lastQuickRestartAt: NOW + 50 }));
  assert.equal(slow.next.nextRetryAt, NOW + 1000);
  assert.ok(!slow.effects.some((e) => e.kind === 'paced'));
});

test('planning is pure: the same input gives the same plan twice', () => {
  for (const row of TABLE) assert.deepEqual(planProcess(row.given), planProcess(row.given), row.edge);
});

test('a cancelled start says what it cancelled: the Backoff retry with its number and due time, or what the start waited for', () => {
  const msgOf = (plan: ReturnType<typeof planProcess>) => plan.effects.map((e) => (e.kind === 'event' ? e.event.msg : '')).join('|');
  const backoff = planProcess(input({ ...initialProcState(intent()), status: 'Backoff', retries: 3, nextRetryAt: NOW + 7_500 }, { run: 'stopped', cfg: { retry_limit: 5 } }));
  assert.equal(msgOf(backoff), 'stopped on request in Backoff: retry 3/5, due in 8 s, cancelled');
  const waiting = planProcess(input({ ...initialProcState(intent()), status: 'Starting', waiting: 'waiting for db to be Healthy' }, { run: 'stopped' }));
  assert.equal(msgOf(waiting), 'stopped on request before its process started (waiting for db to be Healthy): start cancelled');
});

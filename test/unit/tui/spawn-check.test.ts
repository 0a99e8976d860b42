import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProgramDetail } from '../../../api/wire.js';
import type { LastExit } from '../../../state/observed.js';
import type { ApiClient } from '../../../tui/client/http.js';
import { ApiError } from '../../../tui/client/errors.js';
import { firstStartProblem, problemText, watchStarted } from '../../../tui/cli/spawn-check.js';

/** A poll clock that moves 100 ms at each pause: the watch runs its whole second without waiting. */
function fakeTime() {
  let now = 0;
  return { now: () => now, pause: () => Promise.resolve(void (now += 100)) };
}

/** A program's state as svcd answers it, with its pid (the list shows the pid; the watch follows it). */
type State = Pick<ProgramDetail['state'], 'status' | 'desired' | 'last_exit'> & { pid?: number | null };
const detail = ({ pid = null, ...state }: State) => ({ id: 'p1', name: 'web', pid, config: { name: 'web', command: 'app' }, state }) as unknown as ProgramDetail;
const exit = (over: Partial<LastExit>): LastExit => ({ exit_code: 4, signal: null, at: 0, duration_ms: 40, reason: 'crash', msg: 'crashed: exit code 4', ...over });

/**
 * A client that answers GET /programs/:id, and the list (as the watch polls it), from `states` in
 * turn (the last one again), and the logs with `logs`.
 */
function fakeClient(states: (State | Error)[], logs: () => Promise<unknown> = () => Promise.resolve({ id: 'p1', logs: [] })) {
  let i = 0;
  const gets: string[] = [];
  const client = {
    get: (path: string) => {
      gets.push(path);
      if (path.includes('/logs?')) return logs();
      const next = states[Math.min(i++, states.length - 1)];
      if (next instanceof Error) return Promise.reject(next);
      const d = detail(next);
      return Promise.resolve(path === '/api/v1/programs' ? [d] : d);
    },
  } as unknown as ApiClient;
  return { client, gets };
}

void test('svc add: a crash at once is reported with how it ended and the last lines of stderr', async () => {
  const { client, gets } = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({}) }], () =>
    Promise.resolve({ id: 'p1', logs: [{ source: 'stderr', content: 'cannot open /etc/web.conf' }] }),
  );
  assert.deepEqual(await firstStartProblem(client, 'p1', fakeTime()), { message: 'crashed: exit code 4, 40 ms after it started; now Backoff', stderr: ['cannot open /etc/web.conf'] });
  assert.match(gets[1] ?? '', /\/logs\?tail=5&source=stderr$/);
});

void test('svc add: a process that lived under a millisecond reads so, not as 0 ms; one of seconds in seconds', async () => {
  const quick = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({ duration_ms: 0.3 }) }], () => Promise.resolve({ id: 'p1', logs: [] }));
  assert.equal((await firstStartProblem(quick.client, 'p1', fakeTime()))?.message, 'crashed: exit code 4, under 1 ms after it started; now Backoff');
  const slow = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({ duration_ms: 2480 }) }], () => Promise.resolve({ id: 'p1', logs: [] }));
  assert.equal((await firstStartProblem(slow.client, 'p1', fakeTime()))?.message, 'crashed: exit code 4, 2.5 s after it started; now Backoff');
});

void test('svc add: logs that cannot be read leave the warning without lines', async () => {
  const { client } = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({}) }], () => Promise.reject(new ApiError('cannot read', 'http', 500)));
  assert.deepEqual(await firstStartProblem(client, 'p1', fakeTime()), { message: 'crashed: exit code 4, 40 ms after it started; now Backoff', stderr: [] });
});

void test('svc add: a program someone else stops while it is watched is not a crash', async () => {
  const { client } = fakeClient([
    { status: 'Running', desired: 'running', last_exit: null, pid: 7 },
    { status: 'Stopped', desired: 'stopped', last_exit: exit({ reason: 'stop', exit_code: null, signal: 15, msg: 'stopped on request' }) },
  ]);
  assert.equal(await firstStartProblem(client, 'p1', fakeTime()), null);
});

void test('svc add: the program removed, or svcd gone, while it is watched: the add stands, nothing is reported', async () => {
  for (const err of [new ApiError("program 'p1' not found", 'http', 404), new ApiError('cannot reach svcd at unix:/x: connection refused', 'unreachable')]) {
    const { client } = fakeClient([{ status: 'Running', desired: 'running', last_exit: null, pid: 7 }, err]);
    assert.equal(await firstStartProblem(client, 'p1', fakeTime()), null, err.message);
  }
});

/** A client whose list answers `lists` in turn (the last one again) and whose details come from `details`. */
function listClient(lists: { id: string; pid: number | null }[][], details: Record<string, { state: State; cron?: string }>) {
  let i = 0;
  return {
    get: (path: string) => {
      if (path.includes('/logs?')) return Promise.resolve({ id: 'x', logs: [{ source: 'stderr', content: 'bad config' }] });
      if (path === '/api/v1/programs') return Promise.resolve(lists[Math.min(i++, lists.length - 1)]);
      const id = path.split('/').pop()!;
      const d = details[id];
      return d ? Promise.resolve({ id, name: id, config: { name: id, command: 'app', ...(d.cron ? { cron: d.cron } : {}) }, state: d.state }) : Promise.reject(new ApiError(`program '${id}' not found`, 'http', 404));
    },
  } as unknown as ApiClient;
}

void test('svc start/restart: of the processes started, the one that crashed is reported; one still running, a cron run and a removed program are not', async () => {
  const client = listClient(
    [
      [
        { id: 'crashy', pid: 11 },
        { id: 'steady', pid: 12 },
        { id: 'job', pid: 13 },
        { id: 'gone', pid: 14 },
      ],
      [
        { id: 'crashy', pid: null },
        { id: 'steady', pid: 12 },
        { id: 'job', pid: null },
      ],
    ],
    {
      crashy: { state: { status: 'Backoff', desired: 'running', last_exit: exit({}) } },
      steady: { state: { status: 'Running', desired: 'running', last_exit: null } },
      job: { state: { status: 'Scheduled', desired: 'running', last_exit: exit({ reason: 'crash' }) }, cron: '* * * * *' },
    },
  );
  const started = ['crashy', 'steady', 'job', 'gone'].map((id, i) => ({ id, pid: 11 + i }));
  const problems = await watchStarted(client, started, fakeTime());
  assert.deepEqual([...problems.keys()], ['crashy']);
  assert.deepEqual(problems.get('crashy'), { message: 'crashed: exit code 4, 40 ms after it started; now Backoff', stderr: ['bad config'] });
});

void test('svc start/restart: a program whose process ended before the answer (no pid) is judged at once', async () => {
  const client = listClient([[]], { early: { state: { status: 'Fatal', desired: 'running', last_exit: exit({ msg: 'crashed: exit code 1', exit_code: 1 }) } } });
  const problems = await watchStarted(client, [{ id: 'early', pid: null }], fakeTime());
  assert.equal(problems.get('early')?.message, 'crashed: exit code 1, 40 ms after it started; now Fatal');
  assert.equal(problemText('early', problems.get('early')!), 'warning: early: crashed: exit code 1, 40 ms after it started; now Fatal\n  its last lines of stderr (svc logs early):\n    bad config\n');
});

void test('svc start/restart: svcd not answering during the watch ends it, with what was found so far', async () => {
  const client = { get: () => Promise.reject(new ApiError('cannot reach svcd', 'unreachable')) } as unknown as ApiClient;
  assert.equal((await watchStarted(client, [{ id: 'a', pid: 5 }], fakeTime())).size, 0);
});

void test('svc add: a long line of stderr is cut in the warning', async () => {
  const { client } = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({}) }], () => Promise.resolve({ id: 'p1', logs: [{ source: 'stderr', content: 'x'.repeat(100_000) }] }));
  const problem = await firstStartProblem(client, 'p1', fakeTime());
  assert.equal(problem?.stderr[0], `${'x'.repeat(400)} …`);
});

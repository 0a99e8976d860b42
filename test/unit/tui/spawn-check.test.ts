import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProgramDetail } from '../../../api/wire.js';
import type { LastExit } from '../../../state/observed.js';
import type { ApiClient } from '../../../tui/client/http.js';
import { ApiError } from '../../../tui/client/errors.js';
import { firstStartProblem } from '../../../tui/cli/spawn-check.js';

type State = Pick<ProgramDetail['state'], 'status' | 'desired' | 'last_exit'>;
const detail = (state: State) => ({ id: 'p1', name: 'web', state }) as unknown as ProgramDetail;
const exit = (over: Partial<LastExit>): LastExit => ({ exit_code: 4, signal: null, at: 0, duration_ms: 40, reason: 'crash', msg: 'crashed: exit code 4', ...over });

/** A client that answers GET /programs/:id from `states` in turn (the last one again), and the logs with `logs`. */
function fakeClient(states: (State | Error)[], logs: () => Promise<unknown> = () => Promise.resolve({ id: 'p1', logs: [] })) {
  let i = 0;
  const gets: string[] = [];
  const client = {
    get: (path: string) => {
      gets.push(path);
      if (path.includes('/logs?')) return logs();
      const next = states[Math.min(i++, states.length - 1)];
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(detail(next));
    },
  } as unknown as ApiClient;
  return { client, gets };
}

void test('svc add: a crash at once is reported with how it ended and the last lines of stderr', async () => {
  const { client, gets } = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({}) }], () =>
    Promise.resolve({ id: 'p1', logs: [{ source: 'stderr', content: 'cannot open /etc/web.conf' }] }),
  );
  assert.deepEqual(await firstStartProblem(client, 'p1'), { message: 'crashed: exit code 4, 40 ms after it started; now Backoff', stderr: ['cannot open /etc/web.conf'] });
  assert.match(gets[1] ?? '', /\/logs\?tail=5&source=stderr$/);
});

void test('svc add: logs that cannot be read leave the warning without lines', async () => {
  const { client } = fakeClient([{ status: 'Backoff', desired: 'running', last_exit: exit({}) }], () => Promise.reject(new ApiError('cannot read', 'http', 500)));
  assert.deepEqual(await firstStartProblem(client, 'p1'), { message: 'crashed: exit code 4, 40 ms after it started; now Backoff', stderr: [] });
});

void test('svc add: a program someone else stops while it is watched is not a crash', async () => {
  const { client } = fakeClient([
    { status: 'Running', desired: 'running', last_exit: null },
    { status: 'Stopped', desired: 'stopped', last_exit: exit({ reason: 'stop', exit_code: null, signal: 15, msg: 'stopped on request' }) },
  ]);
  assert.equal(await firstStartProblem(client, 'p1'), null);
});

void test('svc add: the program removed, or svcd gone, while it is watched: the add stands, nothing is reported', async () => {
  for (const err of [new ApiError("program 'p1' not found", 'http', 404), new ApiError('cannot reach svcd at unix:/x: connection refused', 'unreachable')]) {
    const { client } = fakeClient([{ status: 'Running', desired: 'running', last_exit: null }, err]);
    assert.equal(await firstStartProblem(client, 'p1'), null, err.message);
  }
});

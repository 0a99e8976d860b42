import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, fixture, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';

/**
 * Spec, program configuration: "autostart | Controls boot-time start only. It does not disable
 * crash restarts." A cron program's schedule is not a boot-time start (docs/cron.md): it is active
 * from creation whatever autostart says, and an explicit stop pauses it across daemon restarts.
 */
interface Detail {
  id: string;
  pid: number | null;
  status: string;
  restarts: number;
  state: { cron?: { next_fire_at: number | null } };
}
const FOREVER = fixture('forever.js');
const EVERY_SECOND = '* * * * * *';

async function create(d: RunningDaemon, config: Record<string, unknown>): Promise<string> {
  const res = await d.request('POST', '/api/v1/programs', config);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}
const detail = async (d: RunningDaemon, id: string) => (await d.request<Detail>('GET', `/api/v1/programs/${id}`)).body;
const count = async (d: RunningDaemon, id: string, type: string) => (await d.request<unknown[]>('GET', `/api/v1/events?program_id=${id}&event_type=${type}&limit=1000`)).body.length;

test('autostart controls boot-time start only: a cron program created with autostart = false runs on schedule', async () => {
  const root = tempRoot();
  const d = await startDaemon(root);
  try {
    const id = await create(d, { name: 'nightly', command: 'true', cron: EVERY_SECOND, autostart: false });
    // The create answers once the record is stored; the controller publishes the schedule right after.
    await eventually(async () => ((await detail(d, id)).state.cron?.next_fire_at ?? null) !== null, 5000, 'the schedule is active from creation');
    await eventually(async () => (await count(d, id, 'cron_exit')) > 0, 15_000, 'a run of the autostart = false cron program');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

for (const how of ['graceful', 'kill -9'] as const) {
  test(`autostart controls boot-time start only: a paused cron job does not resume by itself after a daemon restart (${how})`, async () => {
    const root = tempRoot();
    let d = await startDaemon(root);
    try {
      const paused = await create(d, { name: 'paused', command: 'true', cron: EVERY_SECOND });
      const witness = await create(d, { name: 'witness', command: 'true', cron: EVERY_SECOND });
      await eventually(async () => (await count(d, paused, 'cron_exit')) > 0, 15_000, 'the job ran before the pause');
      assert.equal((await d.request('POST', `/api/v1/programs/${paused}/stop`)).status, 200);
      assert.equal((await detail(d, paused)).status, 'Stopped');
      // The history is written behind the state: once every run's cron_exit is on disk, so is every
      // cron_started (one queue, in order), and the count below is final.
      const runsBefore = await eventually(async () => {
        const [started, exited] = [await count(d, paused, 'cron_started'), await count(d, paused, 'cron_exit')];
        return started > 0 && started === exited ? started : null;
      }, 10_000, 'the paused job\'s runs all recorded');
      if (how === 'graceful') assert.equal(await d.stop(), 0);
      else await d.crash();
      d = await startDaemon(root);
      const witnessAtBoot = await count(d, witness, 'cron_started');
      // The witness shares the schedule: two of its firings after the boot are two slots the
      // paused job would have fired in, had it resumed.
      await eventually(async () => (await count(d, witness, 'cron_started')) >= witnessAtBoot + 2, 15_000, 'two witness firings after the restart');
      const after = await detail(d, paused);
      assert.equal(after.status, 'Stopped', 'still paused');
      assert.equal(after.state.cron?.next_fire_at, null, 'no next firing while paused');
      assert.equal(await count(d, paused, 'cron_started'), runsBefore, 'nothing fired');
      // It resumes when asked.
      assert.equal((await d.request('POST', `/api/v1/programs/${paused}/start`)).status, 200);
      await eventually(async () => (await count(d, paused, 'cron_started')) > runsBefore, 15_000, 'a run after the resume');
    } finally {
      await d.stop();
      removeRoot(root);
    }
  });
}

test('autostart controls boot-time start only: at boot a stopped program starts again unless autostart = false; autostart = false does not disable crash restarts', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  try {
    const on = await create(d, { name: 'on', command: process.execPath, args: [FOREVER] });
    const off = await create(d, { name: 'off', command: process.execPath, args: [FOREVER], autostart: false, backoff_secs: 0 });
    assert.equal((await detail(d, off)).status, 'Stopped', 'autostart = false: not started on creation');
    assert.equal((await d.request('POST', `/api/v1/programs/${off}/start`)).status, 200);
    const pid = await eventually(async () => (await detail(d, off)).pid, 10_000, 'off running');
    process.kill(pid, 'SIGKILL'); // a crash
    await eventually(async () => {
      const o = await detail(d, off);
      return o.status === 'Running' && o.pid !== pid && o.restarts > 0;
    }, 15_000, 'the crashed autostart = false program restarted by autorestart');
    await eventually(async () => (await detail(d, on)).status === 'Running', 10_000, 'on running');
    assert.equal((await d.request('POST', `/api/v1/programs/${on}/stop`)).status, 200);
    assert.equal(await d.stop(), 0);
    d = await startDaemon(root);
    await eventually(async () => (await detail(d, on)).status === 'Running', 15_000, 'autostart (default true) starts it at boot');
    assert.equal((await detail(d, off)).status, 'Stopped', 'autostart = false: not started at boot');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

test('a crash of svcd is not a boot: a program an operator stopped stays stopped after kill -9, and starts again after a graceful restart', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  try {
    const web = await create(d, { name: 'web', command: process.execPath, args: [FOREVER] });
    await eventually(async () => (await detail(d, web)).status === 'Running', 10_000, 'web running');
    assert.equal((await d.request('POST', `/api/v1/programs/${web}/stop`)).status, 200);
    await d.crash();
    d = await startDaemon(root);
    // The boot's own starts are done once system_startup is recorded (programs start after it).
    await eventually(async () => ((await d.request('GET', '/api/v1/events?event_type=system_startup')).body as unknown[]).length >= 2, 10_000, 'the second start-up');
    assert.equal((await detail(d, web)).status, 'Stopped', 'the stop holds across a crash');
    assert.equal(await d.stop(), 0);
    d = await startDaemon(root);
    await eventually(async () => (await detail(d, web)).status === 'Running', 15_000, 'a graceful restart is a boot: autostart starts it');
  } finally {
    await d.stop();
    removeRoot(root);
  }
});

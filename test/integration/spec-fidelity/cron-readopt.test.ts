import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixture, pidAlive, removeRoot, startDaemon, tempRoot } from '../../helpers/daemon.js';

/**
 * Issue 22 item 7, with the spec's cron rows ("max_concurrent", "cron_exit | Scheduler; carries
 * duration_secs"): runs in flight outlive a crashed daemon and are re-adopted like programs.
 */
interface Detail {
  pid: number | null;
  started_at: number | null;
  status: string;
  state: { cron?: { running: number; last_run: { reason: string; msg: string; duration_secs: number } | null } };
}
interface Event {
  id: string;
  event: string;
  msg: string;
  exit_code: number | null;
  duration_secs: number | null;
}

const MODES: { name: string; env: Record<string, string>; exitMsg: RegExp; reason: string }[] = [
  // The spawner keeps a child's exit across a daemon crash: the adopted run's real exit code is recorded.
  { name: 'spawner', env: {}, exitMsg: /\) exited: exit code 0 after /, reason: 'ok' },
  // Without it, an adopted run's status cannot be known.
  { name: 'child_process', env: { SVC_SPAWNER: 'off' }, exitMsg: /\) ended: exit status unknown \(process adopted after a daemon restart\) after /, reason: 'unknown' },
];

for (const mode of MODES) test(`cron runs in flight are re-adopted after a daemon crash (${mode.name}): max_concurrent counts them and their cron_exit is recorded when they end`, async () => {
  const root = tempRoot();
  const start = () => startDaemon(root, { env: mode.env });
  let d = await start();
  let pid = 0;
  // The first run lasts until the test releases it: a fixed length raced a slow daemon restart.
  const release = join(root, 'release-run');
  try {
    const created = await d.request('POST', '/api/v1/programs', {
      name: 'long-job',
      command: process.execPath,
      args: [fixture('exit-on-file.js'), release],
      cron: '* * * * * *',
      on_overlap: 'skip',
      max_concurrent: 1,
    });
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    const detail = async () => (await d.request<Detail>('GET', `/api/v1/programs/${id}`)).body;
    const events = async () => (await d.request<Event[]>('GET', `/api/v1/programs/${id}/events?limit=1000`)).body;
    const running = await eventually(async () => {
      const o = await detail();
      return o.state.cron?.running === 1 ? o : null;
    }, 15_000, 'a run in flight');
    pid = running.pid!;
    const startedAt = running.started_at!;
    await d.crash();
    assert.ok(pidAlive(pid), 'the run outlives the crashed daemon');
    // Let the run age while no daemon watches it, so its real start and its re-adoption differ.
    await eventually(() => Date.now() - startedAt >= 2500, 5000, 'the run to be 2.5 s old');
    d = await start();
    const adopted = await detail();
    assert.equal(adopted.pid, pid, 'the run is re-adopted');
    assert.equal(adopted.state.cron?.running, 1);
    assert.equal(adopted.status, 'Running');
    assert.ok(Math.abs(adopted.started_at! - startedAt) < 1500, `started_at is the run's real start (${adopted.started_at} vs ${startedAt})`);
    const bootEvents = (await events()).length;
    // Firings while the adopted run lives are skipped: max_concurrent counts it. (The slots missed
    // while no daemon ran are a cron_skipped of their own: 'missed slots not run'.)
    const skipped = await eventually(async () => (await events()).slice(bootEvents).find((e) => e.event === 'cron_skipped' && e.msg.startsWith('firing for slot')), 10_000, 'a firing skipped for the adopted run');
    assert.match(skipped.msg, /skipped: 1 run in flight \(max_concurrent 1, on_overlap = skip\)$/);
    // Its end is recorded.
    const releasedAt = Date.now();
    writeFileSync(release, '');
    const exit = await eventually(async () => (await events()).find((e) => e.event === 'cron_exit' && e.msg.includes(`run pid ${pid} `)), 20_000, 'the cron_exit of the adopted run');
    assert.match(exit.msg, mode.exitMsg);
    // Measured from the run's real start, not from its re-adoption (at least 2.5 s later).
    const lived = (releasedAt - startedAt) / 1000;
    assert.ok(exit.duration_secs !== null && exit.duration_secs >= lived - 1, `duration from the run's real start (>= ${lived.toFixed(1)} s), got ${exit.duration_secs}`);
    assert.equal((await detail()).state.cron?.last_run?.reason, mode.reason);
    assert.equal(pidAlive(pid), false);
    // No other run started before it ended; the schedule goes on afterwards.
    await eventually(async () => (await events()).slice(bootEvents).some((e) => e.event === 'cron_started'), 10_000, 'a new run after the adopted one');
    const after = (await events()).slice(bootEvents);
    const firstStart = after.findIndex((e) => e.event === 'cron_started');
    const adoptedExit = after.findIndex((e) => e.id === exit.id);
    assert.ok(adoptedExit !== -1 && adoptedExit < firstStart, 'the first new run started after the adopted run ended');
  } finally {
    await d.stop();
    if (pid && pidAlive(pid)) process.kill(-pid, 'SIGKILL');
    removeRoot(root);
  }
});

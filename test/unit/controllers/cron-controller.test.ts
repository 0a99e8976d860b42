import { test } from 'node:test';
import type { MemoryLevel } from 'memory-level';
import assert from 'node:assert/strict';
import { CATCHUP_CAP } from '../../../controllers/cron/plan.js';
import { cronHarness, MIN, T0 } from '../../helpers/cron-harness.js';

const iso = (ms: number) => new Date(ms).toISOString();

test('a cron program is Scheduled, not started at creation; each slot spawns one run in its own process group', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'report', cron: '*/5 * * * *', command: 'backup --full' });
  assert.equal(h.status(id), 'Scheduled');
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.cronOf(id).next_fire_at, T0 + 5 * MIN);
  await h.advance(5 * MIN - 1);
  assert.equal(h.os.spawnCount, 0, 'nothing before the slot');
  await h.advance(1);
  assert.equal(h.os.spawnCount, 1);
  assert.equal(h.status(id), 'Running');
  const [run] = h.alive();
  assert.equal(run.spec.file, 'backup');
  assert.deepEqual(run.spec.args, ['--full']);
  assert.equal(run.spec.stdoutPath, `/srv/logs/${id}.out`, 'appends to the program log files');
  assert.equal(run.spec.env.SVC_CRON_SLOT, iso(T0 + 5 * MIN));
  assert.match(h.ofType('cron_started')[0].msg, new RegExp(`run started pid ${run.pid} for slot ${iso(T0 + 5 * MIN)}`));
  await h.advance(1500);
  h.os.exit(run.pid, 0);
  await h.settle();
  const exit = h.ofType('cron_exit')[0];
  assert.equal(exit.exit_code, 0);
  assert.equal(exit.signal, null);
  assert.equal(exit.duration_secs, 1.5);
  assert.equal(h.status(id), 'Scheduled');
  assert.deepEqual(h.cronOf(id).last_run && { ...h.cronOf(id).last_run, msg: '' }, {
    slot: T0 + 5 * MIN, started_at: T0 + 5 * MIN, exit_code: 0, signal: null, duration_secs: 1.5, reason: 'ok', msg: '',
  });
  assert.equal(h.cronOf(id).next_fire_at, T0 + 10 * MIN);
  await h.close();
});

test('a failing run is recorded as failed; a run is never restarted by autorestart', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'flaky', cron: '* * * * *', autorestart: 'true' });
  await h.advance(MIN);
  h.os.exit(h.alive()[0].pid, 3);
  await h.settle();
  assert.equal(h.cronOf(id).last_run!.reason, 'failed');
  assert.match(h.ofType('cron_exit')[0].msg, /failed: exit code 3/);
  await h.advance(MIN - 1);
  assert.equal(h.os.spawnCount, 1, 'no restart until the next slot');
  await h.advance(1);
  assert.equal(h.os.spawnCount, 2);
  await h.close();
});

test('6-field expressions fire on seconds; cron_tz reads the expression in that zone', async () => {
  const h = await cronHarness();
  const fast = await h.add({ name: 'fast', cron: '*/10 * * * * *' });
  const berlin = await h.add({ name: 'berlin', cron: '0 9 * * *', cron_tz: 'Europe/Berlin' });
  assert.equal(h.cronOf(fast).next_fire_at, T0 + 10_000);
  assert.equal(h.cronOf(berlin).next_fire_at, Date.UTC(2024, 0, 1, 8, 0, 0), '09:00 CET is 08:00 UTC');
  await h.advance(30_000);
  assert.equal(h.os.spawnCount, 1, 'max_concurrent 1 and skip: the first run is still alive');
  assert.equal(h.cronOf(fast).skipped, 2);
  await h.close();
});

test('overlap skip: a firing at max_concurrent is skipped; max_concurrent 2 allows two runs', async () => {
  const h = await cronHarness();
  const one = await h.add({ name: 'one', cron: '* * * * *', on_overlap: 'skip' });
  const two = await h.add({ name: 'two', cron: '* * * * *', on_overlap: 'skip', max_concurrent: 2 });
  await h.advance(3 * MIN);
  assert.equal(h.cronOf(one).running, 1);
  assert.equal(h.cronOf(one).skipped, 2);
  assert.equal(h.cronOf(two).running, 2);
  assert.equal(h.cronOf(two).skipped, 1);
  assert.equal(h.status(two), 'Running');
  await h.close();
});

test('cron overlap skip: "The new firing is skipped", and a cron_skipped event names the slot and the reason', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'nightly', cron: '* * * * *', on_overlap: 'skip' });
  await h.advance(2 * MIN);
  assert.equal(h.cronOf(id).skipped, 1);
  const [skipped] = h.ofType('cron_skipped');
  assert.equal(skipped.program_id, id);
  assert.equal(skipped.program_name, 'nightly');
  assert.equal(skipped.msg, `firing for slot ${iso(T0 + 2 * MIN)} skipped: 1 run in flight (max_concurrent 1, on_overlap = skip)`);
  await h.close();
});

test('overlap queue: firings wait up to max_queued, the excess is dropped with queue_full; queued runs start in order', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'q', cron: '* * * * *', on_overlap: 'queue', max_queued: 2 });
  await h.advance(4 * MIN);
  assert.equal(h.cronOf(id).running, 1);
  assert.equal(h.cronOf(id).queued, 2);
  assert.equal(h.cronOf(id).dropped, 1);
  const full = h.ofType('queue_full');
  assert.equal(full.length, 1);
  assert.match(full[0].msg, new RegExp(`slot ${iso(T0 + 4 * MIN)} dropped: 2 already queued \\(max_queued 2\\)`));
  h.os.exit(h.alive()[0].pid, 0);
  await h.settle();
  assert.equal(h.cronOf(id).queued, 1);
  assert.equal(h.alive()[0].spec.env.SVC_CRON_SLOT, iso(T0 + 2 * MIN), 'the oldest queued slot runs first');
  assert.match(h.ofType('cron_started')[1].msg, /, queue$/);
  await h.close();
});

test('max_queued 0 means the default of 100', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'q0', cron: '*/10 * * * * *', on_overlap: 'queue', max_queued: 0 });
  await h.advance(102 * 10_000);
  assert.equal(h.cronOf(id).queued, 100);
  assert.equal(h.cronOf(id).dropped, 1);
  await h.close();
});

test('overlap kill: the oldest run is stopped (SIGTERM, SIGKILL after stopsecs) and the new one starts', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'k', cron: '* * * * *', on_overlap: 'kill', stopsecs: 5 });
  await h.advance(MIN);
  const first = h.alive()[0].pid;
  h.os.ignoreTerm.add(first);
  await h.advance(MIN);
  assert.deepEqual(h.os.processes.get(first)!.signals, ['SIGTERM']);
  assert.equal(h.os.spawnCount, 2, 'the new run started at once');
  assert.equal(h.cronOf(id).running, 2, 'the old one still shuts down');
  await h.advance(5000);
  assert.deepEqual(h.os.processes.get(first)!.signals, ['SIGTERM', 'SIGKILL']);
  const exit = h.ofType('cron_exit')[0];
  assert.equal(exit.signal, 9);
  assert.match(exit.msg, /killed by on_overlap = kill/);
  assert.equal(h.cronOf(id).running, 1);
  assert.equal(h.cronOf(id).last_run!.reason, 'overlap');
  await h.close();
});

/** Daemon down from just after the slot at T0 until 5 minutes and 45 s later: 5 missed slots, none on time. */
async function afterDowntime(overlap: 'skip' | 'queue' | 'kill', catchup: 'skip' | 'latest' | 'all') {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'job', cron: '* * * * *', on_overlap: overlap, catchup });
  await h1.down();
  const h2 = await cronHarness({ db: h1.db, now: T0 + 5 * MIN + 45_000 });
  await h2.settle();
  return { h: h2, id };
}

/** The 5 slots missed in afterDowntime, not run with catchup = skip: said once, as one cron_skipped event. */
const MISSED_SKIPPED = `5 missed slots not run, ${iso(T0 + MIN)} to ${iso(T0 + 5 * MIN)} (catchup = skip): svcd was not running, stalled, or the clock stepped forward`;

const MATRIX: { overlap: 'skip' | 'queue' | 'kill'; catchup: 'skip' | 'latest' | 'all'; spawned: string[]; queued: number; skipped: number; missed?: string }[] = [
  { overlap: 'skip', catchup: 'skip', spawned: [], queued: 0, skipped: 0, missed: MISSED_SKIPPED },
  { overlap: 'queue', catchup: 'skip', spawned: [], queued: 0, skipped: 0, missed: MISSED_SKIPPED },
  { overlap: 'kill', catchup: 'skip', spawned: [], queued: 0, skipped: 0, missed: MISSED_SKIPPED },
  { overlap: 'skip', catchup: 'latest', spawned: [iso(T0 + 5 * MIN)], queued: 0, skipped: 0 },
  { overlap: 'queue', catchup: 'latest', spawned: [iso(T0 + 5 * MIN)], queued: 0, skipped: 0 },
  { overlap: 'kill', catchup: 'latest', spawned: [iso(T0 + 5 * MIN)], queued: 0, skipped: 0 },
  { overlap: 'skip', catchup: 'all', spawned: [iso(T0 + MIN)], queued: 0, skipped: 4 },
  { overlap: 'queue', catchup: 'all', spawned: [iso(T0 + MIN)], queued: 4, skipped: 0 },
  { overlap: 'kill', catchup: 'all', spawned: [iso(T0 + 5 * MIN)], queued: 0, skipped: 4 },
];

for (const row of MATRIX) {
  test(`catch-up after downtime: on_overlap ${row.overlap} x catchup ${row.catchup}`, async () => {
    const { h, id } = await afterDowntime(row.overlap, row.catchup);
    assert.deepEqual(h.alive().map((p) => p.spec.env.SVC_CRON_SLOT), row.spawned);
    assert.equal(h.cronOf(id).queued, row.queued);
    assert.equal(h.cronOf(id).skipped, row.skipped);
    const [missed, ...firings] = row.missed ? h.ofType('cron_skipped') : [undefined, ...h.ofType('cron_skipped')];
    assert.equal(missed?.msg, row.missed, 'missed slots that catchup does not run are said');
    assert.equal(firings.length, row.skipped, 'every skipped firing leaves a cron_skipped event');
    for (const e of h.ofType('cron_started')) assert.match(e.msg, /, catchup$/);
    assert.equal(h.cronOf(id).next_fire_at, T0 + 6 * MIN, 'then the schedule goes on');
    await h.close();
  });
}

test('catch-up all with queue replays missed slots one after another, oldest first', async () => {
  const { h, id } = await afterDowntime('queue', 'all');
  const slots: string[] = [];
  for (let i = 0; i < 5; i++) {
    const [run] = h.alive();
    slots.push(run.spec.env.SVC_CRON_SLOT);
    h.os.exit(run.pid, 0);
    await h.settle();
  }
  assert.deepEqual(slots, [1, 2, 3, 4, 5].map((m) => iso(T0 + m * MIN)));
  assert.equal(h.cronOf(id).queued, 0);
  await h.close();
});

test(`catch-up all is capped at the newest ${CATCHUP_CAP} missed slots`, async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'busy', cron: '* * * * *', on_overlap: 'queue', catchup: 'all', max_queued: 1000 });
  await h1.down();
  const h = await cronHarness({ db: h1.db, now: T0 + 300 * MIN + 45_000 });
  await h.settle();
  assert.equal(h.cronOf(id).running + h.cronOf(id).queued, CATCHUP_CAP);
  assert.equal(h.alive()[0].spec.env.SVC_CRON_SLOT, iso(T0 + 201 * MIN));
  assert.deepEqual(h.ofType('cron_skipped').map((e) => e.msg), [
    `missed slots not run, ${iso(T0 + MIN)} to ${iso(T0 + 200 * MIN)} (catchup = all runs the newest ${CATCHUP_CAP}): svcd was not running, stalled, or the clock stepped forward`,
  ]);
  await h.close();
});

test('missed slots that catchup = skip does not run leave one cron_skipped event, also when there are more than it lists', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'ticker', cron: '* * * * * *', catchup: 'skip' });
  await h1.advance(1000);
  h1.os.exit(h1.alive()[0].pid, 0);
  await h1.down();
  const h = await cronHarness({ db: h1.db, now: T0 + 2 * 3600_000 + 500 }); // two hours down
  await h.settle();
  assert.equal(h.os.spawnCount, 1, 'the slot of now is on time');
  const [missed] = h.ofType('cron_skipped');
  assert.equal(missed.msg, `missed slots not run, ${iso(T0 + 2000)} to ${iso(T0 + 2 * 3600_000 - 1000)} (catchup = skip): svcd was not running, stalled, or the clock stepped forward`);
  assert.equal(h.ofType('cron_skipped').length, 1);
  assert.equal(h.cronOf(id).skipped, 0, 'the counter is of firings skipped by on_overlap');
  h.os.exit(h.alive()[0].pid, 0);
  await h.advance(1000);
  assert.equal(h.os.spawnCount, 2);
  assert.equal(h.ofType('cron_skipped').length, 1, 'said once');
  await h.close();
});

test('a slot that is at most 30 s late (a quick restart or a stall) fires as on time, whatever the catch-up policy', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'job', cron: '* * * * *', catchup: 'skip' });
  await h1.down();
  const h = await cronHarness({ db: h1.db, now: T0 + MIN + 20_000 });
  await h.settle();
  assert.deepEqual(h.alive().map((p) => p.spec.env.SVC_CRON_SLOT), [iso(T0 + MIN)]);
  assert.match(h.ofType('cron_started')[0].msg, /Z$/, 'trigger schedule');
  assert.equal(h.cronOf(id).running, 1);
  await h.close();
});

test('a slot fired before the restart is not fired again (the mark persists)', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'job', cron: '* * * * *', catchup: 'all' });
  await h1.advance(MIN);
  h1.os.exit(h1.alive()[0].pid, 0);
  await h1.settle();
  await h1.down();
  const h = await cronHarness({ db: h1.db, now: T0 + MIN + 10_000 });
  await h.settle();
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.cronOf(id).next_fire_at, T0 + 2 * MIN);
  await h.close();
});

test('H picks one time per program, from its name: the same after every daemon restart, and another for another name', async () => {
  const nextOf = async (db: MemoryLevel<string, string> | undefined, name: string) => {
    const h = await cronHarness({ db });
    const id = db ? h.store.list().find((r) => r.config.name === name)!.id : await h.add({ name, cron: 'H H * * *' });
    await h.settle();
    const next = h.cronOf(id).next_fire_at;
    await h.close(); // the next daemon opens the same database again
    return { db: h.db, next };
  };
  const first = await nextOf(undefined, 'backup');
  for (let restart = 0; restart < 3; restart++) assert.equal((await nextOf(first.db, 'backup')).next, first.next, `restart ${restart + 1}`);
  const names = ['backup-2', 'backup-3', 'backup-4'];
  const others = await Promise.all(names.map(async (name) => (await nextOf(undefined, name)).next));
  assert.ok(others.some((next) => next !== first.next), 'other names spread over the day');
  assert.deepEqual(await Promise.all(names.map(async (name) => (await nextOf(undefined, name)).next)), others, 'each name keeps its own time');
});

test('jitter delays each firing by random x jitter_sec, drawn once per slot from the injected source', async () => {
  const h = await cronHarness();
  h.setRandom(0.5);
  const id = await h.add({ name: 'j', cron: '* * * * *', jitter_sec: 10 });
  assert.equal(h.cronOf(id).next_fire_at, T0 + MIN, 'before the slot: the slot itself');
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.cronOf(id).next_fire_at, T0 + MIN + 5000);
  h.setRandom(0.9); // a later draw must not move the pending firing
  await h.advance(4999);
  assert.equal(h.os.spawnCount, 0);
  await h.advance(1);
  assert.equal(h.os.spawnCount, 1);
  h.os.exit(h.alive()[0].pid, 0);
  h.setRandom(0.999999);
  await h.advance(MIN - 5000);
  assert.ok(h.cronOf(id).next_fire_at! < T0 + 2 * MIN + 10_000, 'bounded by jitter_sec');
  assert.equal(h.cronOf(id).next_fire_at, T0 + 2 * MIN + 9999);
  await h.close();
});

test('a jitter wait longer than the 30 s grace, interrupted by another pass, still fires the slot', async () => {
  const h = await cronHarness();
  h.setRandom(0.9);
  const id = await h.add({ name: 'long', cron: '0 * * * *', jitter_sec: 100, catchup: 'skip' });
  await h.advance(60 * MIN);
  assert.equal(h.cronOf(id).next_fire_at, T0 + 60 * MIN + 90_000);
  await h.advance(60_000);
  await h.store.update(id, (c) => ({ ...c, stopsecs: 3 })); // a pass 60 s after the slot
  await h.settle();
  assert.equal(h.os.spawnCount, 0);
  await h.advance(30_000);
  assert.equal(h.os.spawnCount, 1);
  await h.close();
});

test('a jitter_sec longer than the interval still fires every slot: the wait ends before the next slot', async () => {
  const h = await cronHarness();
  h.setRandom(0.9);
  const id = await h.add({ name: 'spread', cron: '* * * * *', jitter_sec: 120 });
  for (let minute = 1; minute <= 3; minute++) {
    await h.advanceTo(T0 + minute * MIN);
    assert.equal(h.cronOf(id).next_fire_at, T0 + minute * MIN + 54_000, '0.9 x the 60 s to the next slot, not 0.9 x 120 s');
    await h.advanceTo(T0 + minute * MIN + 54_000);
    assert.equal(h.os.spawnCount, minute, `the slot of minute ${minute} fired`);
    h.os.exit(h.alive()[0].pid, 0);
    await h.settle();
  }
  assert.deepEqual(h.ofType('cron_started').map((e) => e.msg.replace(/pid \d+ /, '')), [1, 2, 3].map((m) => `run started for slot ${iso(T0 + m * MIN)}`));
  await h.close();
});

test('jitter with random 0 fires exactly at the slot', async () => {
  const h = await cronHarness();
  h.setRandom(0);
  await h.add({ name: 'j0', cron: '* * * * *', jitter_sec: 30 });
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 1);
  await h.close();
});

test('kill_after_secs: SIGTERM at the cap, SIGKILL stopsecs later; cron_exit says it was the cap', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'cap', cron: '0 * * * *', kill_after_secs: 30, stopsecs: 2 });
  await h.advance(60 * MIN);
  const pid = h.alive()[0].pid;
  h.os.ignoreTerm.add(pid);
  await h.advance(29_999);
  assert.deepEqual(h.os.processes.get(pid)!.signals, []);
  await h.advance(1);
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM']);
  await h.advance(2000);
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  const exit = h.ofType('cron_exit')[0];
  assert.match(exit.msg, /killed for exceeding kill_after_secs \(30 s\): killed by signal 9 \(SIGKILL\)/);
  assert.equal(exit.duration_secs, 32);
  assert.equal(h.cronOf(id).last_run!.reason, 'kill_after');
  assert.equal(h.status(id), 'Scheduled');
  await h.close();
});

test('a spawn failure records cron_spawn_failed with the reason; the schedule goes on', async () => {
  const h = await cronHarness();
  h.os.failSpawn.set('missing-cmd', 'spawn missing-cmd ENOENT');
  const id = await h.add({ name: 'broken', cron: '* * * * *', command: 'missing-cmd' });
  await h.advance(MIN);
  const [failed] = h.ofType('cron_spawn_failed');
  assert.match(failed.msg, new RegExp(`spawn failed for slot ${iso(T0 + MIN)}: spawn missing-cmd ENOENT`));
  assert.equal(failed.program_id, id);
  assert.equal(h.status(id), 'Scheduled');
  assert.equal(h.cronOf(id).last_run!.reason, 'spawn_failed');
  assert.equal(h.cronOf(id).next_fire_at, T0 + 2 * MIN);
  await h.close();
});

test('stop pauses the schedule and stops runs in flight; slots while paused are not caught up; start resumes', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'p', cron: '* * * * *', catchup: 'all', stopsecs: 3 });
  await h.advance(MIN);
  const pid = h.alive()[0].pid;
  h.os.ignoreTerm.add(pid);
  await h.pause(id);
  assert.equal(h.status(id), 'Stopping');
  await h.advance(3000);
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.equal(h.status(id), 'Stopped');
  assert.equal(h.cronOf(id).next_fire_at, null);
  assert.match(h.ofType('cron_exit')[0].msg, /stopped on request/);
  await h.advance(10 * MIN);
  assert.equal(h.os.spawnCount, 1, 'nothing fires while paused');
  await h.resume(id);
  assert.equal(h.status(id), 'Scheduled');
  assert.equal(h.os.spawnCount, 1, 'paused slots are not missed slots');
  await h.advanceTo(T0 + 12 * MIN);
  assert.equal(h.os.spawnCount, 2);
  await h.close();
});

test('autostart controls boot-time start only: a cron schedule with autostart false is active from creation', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'a', cron: '* * * * *', autostart: false });
  assert.equal(h.status(id), 'Scheduled');
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 1, 'it fires');
  await h.close();
});

test('a forced stop kills runs at once; a pause survives a daemon restart as a pause (no catch-up)', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'f', cron: '* * * * *', catchup: 'all', autostart: false });
  assert.equal(h1.status(id), 'Scheduled', 'autostart false does not pause a schedule');
  await h1.advance(MIN);
  await h1.pause(id, true);
  assert.deepEqual(h1.os.alive(), []);
  assert.equal(h1.ofType('cron_exit')[0].signal, 9);
  await h1.down();
  const h = await cronHarness({ db: h1.db, now: T0 + 30 * MIN });
  assert.equal(h.status(id), 'Stopped', 'the pause holds at boot');
  await h.resume(id); // svc start
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.cronOf(id).next_fire_at, T0 + 31 * MIN);
  await h.close();
});

test('a restart request triggers one run now, subject to the overlap policy', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'm', cron: '0 0 1 1 *', on_overlap: 'skip' });
  await h.trigger(id);
  assert.equal(h.os.spawnCount, 1);
  assert.match(h.ofType('cron_started')[0].msg, /, manual$/);
  assert.equal(h.observed.get(id).applied_restart_seq, 1);
  await h.trigger(id);
  assert.equal(h.os.spawnCount, 1, 'skipped: one run is already in flight');
  assert.equal(h.cronOf(id).skipped, 1);
  await h.close();
});

test('remove stops runs, forgets the program and deletes its mark', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'r', cron: '* * * * *' });
  await h.advance(MIN);
  await h.store.remove([id]);
  await h.settle();
  assert.deepEqual(h.os.alive(), []);
  assert.deepEqual(h.ofType('cron_exit').map((e) => [e.program_id, e.program_name]), [[id, 'r']], 'the exit of a removed program still names it');
  assert.match(h.ofType('cron_exit')[0].msg, /stopped because the program was removed/);
  assert.equal(h.observed.has(id), false);
  assert.equal(h.cron.stateOf(id), undefined);
  await h.marks.flush();
  assert.equal(await h.store.meta.get(`cron:${id}`), undefined);
  await h.close();
});

test('daemon shutdown stops runs without changing intent or the mark', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 's', cron: '* * * * *' });
  await h.advance(MIN);
  await h.shutdown();
  assert.deepEqual(h.os.alive(), []);
  assert.match(h.ofType('cron_exit')[0].msg, /stopped by daemon shutdown/);
  assert.equal(h.store.get(id)!.intent.run, 'running');
  await h.marks.flush();
  assert.deepEqual(JSON.parse((await h.store.meta.get(`cron:${id}`))!), { last_fire_at: T0 + MIN, paused: false });
  await h.close();
});

test('queued firings dropped by a pause are said in a cron_skipped event, and the mark keeps no queue', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'q', cron: '* * * * *', on_overlap: 'queue' });
  await h.advance(3 * MIN);
  assert.equal(h.cronOf(id).queued, 2);
  await h.pause(id);
  assert.deepEqual(h.ofType('cron_skipped').map((e) => e.msg), [`2 queued firings, slots ${iso(T0 + 2 * MIN)} to ${iso(T0 + 3 * MIN)}, dropped: the schedule was paused (stop)`]);
  await h.settle();
  assert.equal(h.ofType('cron_skipped').length, 1, 'said once');
  await h.marks.flush();
  assert.equal(JSON.parse((await h.store.meta.get(`cron:${id}`))!).queued, undefined);
  await h.close();
});

test('queued firings survive a restart of svcd, graceful or a crash: the next daemon starts them first, oldest first, each once', async () => {
  for (const how of ['shutdown', 'crash'] as const) {
    const h1 = await cronHarness();
    const id = await h1.add({ name: 'q', cron: '* * * * *', on_overlap: 'queue' });
    await h1.advance(3 * MIN); // slot 1 runs (a sleep), slots 2 and 3 wait
    assert.equal(h1.cronOf(id).queued, 2, how);
    if (how === 'shutdown') await h1.shutdown(); // its run is stopped; the queue is kept
    await h1.down(); // a crash: the loop ends, the run lives on
    await h1.marks.flush();
    assert.deepEqual(JSON.parse((await h1.store.meta.get(`cron:${id}`))!).queued, [{ slot: T0 + 2 * MIN, trigger: 'schedule' }, { slot: T0 + 3 * MIN, trigger: 'schedule' }], how);
    assert.deepEqual(h1.ofType('cron_skipped'), [], `${how}: nothing dropped`);
    const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + 3 * MIN + 10_000 });
    await h.settle();
    const slots = () => [...h.os.processes.values()].map((p) => p.spec.env.SVC_CRON_SLOT);
    if (how === 'shutdown') {
      // Slot 1's run was stopped: the oldest queued firing starts at once, the other waits for it.
      assert.deepEqual(slots(), [iso(T0 + MIN), iso(T0 + 2 * MIN)], how);
    } else {
      // Slot 1's run was re-adopted and holds max_concurrent: both wait.
      assert.equal(h.cronOf(id).running, 1, how);
      assert.deepEqual(slots(), [iso(T0 + MIN)], how);
      h.os.exit(h.alive()[0].pid, 0);
      await h.settle();
      assert.deepEqual(slots(), [iso(T0 + MIN), iso(T0 + 2 * MIN)], how);
    }
    assert.equal(h.cronOf(id).queued, 1, how);
    assert.match(h.ofType('cron_started').at(-1)!.msg, /, queue$/, how);
    h.os.exit(h.alive().at(-1)!.pid, 0);
    await h.settle();
    assert.deepEqual(slots(), [iso(T0 + MIN), iso(T0 + 2 * MIN), iso(T0 + 3 * MIN)], `${how}: each queued firing ran once`);
    assert.equal(h.cronOf(id).queued, 0, how);
    await h.marks.flush();
    assert.equal(JSON.parse((await h.store.meta.get(`cron:${id}`))!).queued, undefined, `${how}: the mark's queue is emptied`);
    await h.close();
  }
});

test('a queued firing that started just before a crash, before its mark was written, is not run again by the next daemon', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'q', cron: '* * * * *', on_overlap: 'queue' });
  await h1.advance(2 * MIN); // slot 1 runs, slot 2 waits
  h1.os.exit(h1.alive()[0].pid, 0);
  await h1.settle(); // slot 2 starts from the queue
  await h1.down();
  h1.marks.set(id, { last_fire_at: T0 + 2 * MIN, paused: false, queued: [{ slot: T0 + 2 * MIN, trigger: 'schedule' }] }); // the mark without it never reached the disk
  await h1.marks.flush();
  const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + 2 * MIN + 10_000 });
  await h.settle();
  assert.equal(h.cronOf(id).running, 1, 're-adopted');
  assert.equal(h.cronOf(id).queued, 0, 'the adopted run is that firing');
  h.os.exit(h.alive()[0].pid, 0);
  await h.settle();
  assert.equal(h.os.processes.size, 2, 'slot 2 ran once');
  await h.close();
});

test('changing the expression reschedules without catching up the old one', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'c', cron: '0 * * * *', catchup: 'all' });
  await h.advance(10 * MIN);
  await h.store.update(id, (c) => ({ ...c, cron: '*/15 * * * *' }));
  await h.settle();
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.cronOf(id).next_fire_at, T0 + 15 * MIN);
  await h.close();
});

test('1,000 programs on the same minute share one timer and all fire at the slot', async () => {
  const h = await cronHarness();
  await h.store.create(Array.from({ length: 1000 }, (_, i) => ({ name: `job${i}`, command: 'job', cron: '* * * * *', cron_tz: 'UTC' })), T0);
  await h.settle();
  assert.equal((h.clock as unknown as { timers: unknown[] }).timers.length, 1, 'one clock timer for 1,000 schedules');
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 1000);
  assert.equal(h.ofType('cron_started').length, 1000);
  await h.close();
});

test('a cron run in flight at a daemon crash is re-adopted: max_concurrent counts it, kill_after_secs runs from its real start', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'long', cron: '* * * * *', kill_after_secs: 150 });
  await h1.advance(MIN);
  const [run] = h1.alive();
  h1.os.startedAt.set(run.pid, T0 + MIN); // what /proc tells the next daemon
  await h1.down(); // crashed: the run lives on
  const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + MIN + 20_000 });
  await h.settle();
  assert.equal(h.cronOf(id).running, 1, 're-adopted');
  assert.equal(h.status(id), 'Running');
  await h.advanceTo(T0 + 2 * MIN);
  assert.equal(h.os.spawnCount, 1, 'the slot is skipped: max_concurrent counts the adopted run');
  assert.match(h.ofType('cron_skipped')[0].msg, /1 run in flight/);
  await h.advanceTo(T0 + MIN + 150_000);
  assert.deepEqual(h.os.processes.get(run.pid)!.signals, ['SIGTERM'], 'the cap counts from the real start');
  const [exit] = h.ofType('cron_exit');
  assert.match(exit.msg, new RegExp(`^run pid ${run.pid} .*killed for exceeding kill_after_secs \\(150 s\\)`));
  assert.equal(exit.duration_secs, 150);
  await h.close();
});

test('a re-adopted run stands for its slot when its mark was lost in the crash: the slot does not run a second time', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'nightly', cron: '* * * * *', on_overlap: 'kill', catchup: 'all' });
  await h1.advance(MIN);
  const [run] = h1.alive();
  await h1.down(); // crashed: the run lives on
  h1.marks.set(id, { last_fire_at: T0, paused: false }); // the mark of the slot at T0 + 1 min never reached the disk
  await h1.marks.flush();
  const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + MIN + 20_000 });
  await h.settle();
  assert.equal(h.cronOf(id).running, 1, 're-adopted');
  assert.equal(h.os.spawnCount, 1, 'its slot did not fire again');
  assert.deepEqual(h.os.processes.get(run.pid)!.signals, [], 'and on_overlap = kill did not end the run of that very slot');
  assert.deepEqual(h.ofType('cron_skipped'), []);
  await h.advanceTo(T0 + 2 * MIN);
  assert.equal(h.os.spawnCount, 2, 'the next slot fires (on_overlap = kill)');
  assert.equal(h.alive().at(-1)!.spec.env.SVC_CRON_SLOT, iso(T0 + 2 * MIN));
  await h.close();
});

test('a re-adopted cron run that ends by itself records cron_exit with an unknown exit status, not a failure', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'job', cron: '* * * * *' });
  await h1.advance(MIN);
  const [run] = h1.alive();
  h1.os.startedAt.set(run.pid, T0 + MIN);
  await h1.down();
  const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + MIN + 10_000 });
  await h.settle();
  h.os.exit(run.pid, null); // not the new daemon's child: no status
  await h.settle();
  const [exit] = h.ofType('cron_exit');
  assert.equal(exit.msg, `run pid ${run.pid} (slot ${iso(T0 + MIN)}) ended: exit status unknown (process adopted after a daemon restart) after 10.0 s`);
  assert.equal(h.cronOf(id).last_run!.reason, 'unknown');
  assert.equal(h.cronOf(id).running, 0);
  assert.equal(h.status(id), 'Scheduled');
  await h.close();
});

test('a cron run that ended while the daemon was down records its cron_exit with the exit the spawner kept', async () => {
  const h1 = await cronHarness();
  const id = await h1.add({ name: 'job', cron: '* * * * *' });
  await h1.advance(MIN);
  const [run] = h1.alive();
  assert.equal(run.spec.tag, `${id}@${iso(T0 + MIN)}`, 'the spawner keeps the slot with the run');
  await h1.down();
  h1.os.processes.get(run.pid)!.alive = false; // ended with nobody watching; the spawner kept its exit
  h1.os.recovered = { live: [], exited: [{ pid: run.pid, startTime: run.pid * 10, startedAt: T0 + MIN, tag: run.spec.tag, exit: { code: 3, signal: null, endedAt: T0 + MIN + 2000 } }] };
  const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + MIN + 20_000 });
  await h.settle();
  const [exit] = h.ofType('cron_exit');
  assert.ok(exit, 'a cron_exit is recorded for the run');
  assert.equal(exit.exit_code, 3);
  assert.match(exit.msg, new RegExp(`^run pid ${run.pid} \\(slot ${iso(T0 + MIN)}\\) failed: exit code 3 after 2\\.0 s`), 'timed by when it ended, not when svcd came back');
  assert.equal(exit.duration_secs, 2);
  assert.equal(h.cronOf(id).last_run!.reason, 'failed');
  assert.equal(h.cronOf(id).running, 0);
  assert.equal(h.status(id), 'Scheduled');
  assert.equal(h.os.spawnCount, 1, 'nothing started for it');
  await h.close();
});

test("a cron program's log files are created when it is registered, not in its first slot, and again when its paths change", async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'nightly', cron: '0 3 * * *' });
  assert.deepEqual(h.os.createdLogFiles, [`/srv/logs/${id}.out`, `/srv/logs/${id}.err`]);
  assert.equal(h.os.spawnCount, 0, 'created ahead of any run');
  await h.advance(3 * 60 * MIN);
  assert.equal(h.os.spawnCount, 1);
  h.os.exit(h.alive()[0].pid, 0);
  await h.settle();
  assert.equal(h.os.createdLogFiles.length, 2, 'once per program, not per slot or exit');
  await h.store.update(id, (c) => ({ ...c, stdout_logfile: 'nightly.log' }));
  await h.settle();
  assert.deepEqual(h.os.createdLogFiles.slice(2), ['/srv/logs/nightly.log', `/srv/logs/${id}.err`]);
  await h.close();
});

test('depends_on: a firing waits while a dependency is not up (the newest one), and runs once it is', async () => {
  const h = await cronHarness();
  const [db] = await h.store.create([{ name: 'db', command: 'db' }], h.clock.now());
  h.observed.update(db.id, { status: 'Stopped' });
  const id = await h.add({ name: 'backup', cron: '* * * * *', depends_on: ['db'] });
  assert.equal(h.observed.get(id).detail, 'waiting for db (Stopped)');
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 0, 'it ran while db was stopped');
  assert.equal(h.cronOf(id).queued, 1);
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.cronOf(id).skipped, 1);
  assert.equal(h.ofType('cron_skipped')[0].msg, `firing for slot ${iso(T0 + MIN)} skipped: waiting for db (Stopped), and the firing for slot ${iso(T0 + 2 * MIN)} waits instead`);
  h.observed.update(db.id, { status: 'Running' });
  await h.settle();
  assert.deepEqual(h.alive().map((p) => p.spec.env.SVC_CRON_SLOT), [iso(T0 + 2 * MIN)]);
  assert.equal(h.observed.get(id).detail, null);
  assert.equal(h.cronOf(id).queued, 0);
  h.os.exit(h.alive()[0].pid, 0);
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 2, 'then the schedule goes on');
  await h.close();
});

test('depends_on with on_overlap = queue: every firing waits (up to max_queued) and they run in order', async () => {
  const h = await cronHarness();
  const [db] = await h.store.create([{ name: 'db', command: 'db', health_check: { type: 'tcp', port: 5432 } }], h.clock.now());
  h.observed.update(db.id, { status: 'Running' });
  const id = await h.add({ name: 'etl', cron: '* * * * *', depends_on: ['db'], on_overlap: 'queue', max_queued: 2 });
  await h.advance(3 * MIN);
  assert.equal(h.os.spawnCount, 0, 'db is Running but not yet Healthy');
  assert.equal(h.observed.get(id).detail, 'waiting for db (Running, needs Healthy)');
  assert.equal(h.cronOf(id).queued, 2);
  assert.equal(h.ofType('queue_full').length, 1);
  h.observed.update(db.id, { status: 'Healthy' });
  await h.settle();
  const slots: string[] = [];
  for (let i = 0; i < 2; i++) {
    const [run] = h.alive();
    slots.push(run.spec.env.SVC_CRON_SLOT);
    h.os.exit(run.pid, 0);
    await h.settle();
  }
  assert.deepEqual(slots, [iso(T0 + MIN), iso(T0 + 2 * MIN)]);
  await h.close();
});

test('a program that gained cron runs no slot beside its former service process: the firing waits for it to stop', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'sync', cron: '* * * * *' });
  // What the process controller publishes while it stops the process the program ran as a service.
  h.observed.update(id, { former_pid: 4242 });
  await h.advance(MIN);
  assert.equal(h.os.spawnCount, 0, 'a run started beside the service process');
  assert.equal(h.observed.get(id).detail, 'waiting for its former service process (pid 4242) to stop');
  h.observed.update(id, { former_pid: undefined });
  await h.settle();
  assert.equal(h.os.spawnCount, 1, 'the slot that fell due meanwhile runs once the process is gone');
  assert.equal(h.alive()[0].spec.env.SVC_CRON_SLOT, iso(T0 + MIN));
  await h.close();
});

test('removing cron from a program stops its runs, and their cron_exit says the schedule was removed', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'sync', cron: '* * * * *' });
  await h.advance(MIN);
  const [run] = h.alive();
  await h.store.update(id, (c) => ({ ...c, cron: undefined }));
  await h.settle();
  assert.deepEqual(h.os.processes.get(run.pid)!.signals, ['SIGTERM']);
  assert.match(h.ofType('cron_exit')[0].msg, new RegExp(`run pid ${run.pid} \\(slot ${iso(T0 + MIN)}\\) stopped because its cron schedule was removed: `));
  assert.equal(h.observed.get(id).cron, undefined, 'the program is an ordinary one now');
  await h.close();
});

test('a schedule cron-parser finds no next time for (a DST change in a half-hour zone) is looked at again an hour later, and then fires, instead of never', async () => {
  // Lord Howe Island leaves DST on 5 April 2026 (02:00 back to 01:30); near it cron-parser gives up.
  const h = await cronHarness({ now: Date.UTC(2026, 3, 4, 13, 50) });
  const id = await h.add({ name: 'nightly', cron: '0 2 * * *', cron_tz: 'Australia/Lord_Howe' });
  assert.match(h.observed.get(id).detail ?? '', /^no next time found for the schedule .*; looked for again at 2026-04-04T14:50:00\.000Z$/);
  assert.equal(h.cronOf(id).next_fire_at, null);
  await h.advance(60 * MIN);
  assert.equal(h.observed.get(id).detail, null);
  assert.equal(h.cronOf(id).next_fire_at, Date.UTC(2026, 3, 4, 15, 30), '02:00 on 5 April at +10:30');
  await h.advance(40 * MIN);
  assert.equal(h.os.spawnCount, 1);
  assert.equal(h.alive()[0].spec.env.SVC_CRON_SLOT, '2026-04-04T15:30:00.000Z');
  await h.close();
});

test('the wall clock stepped back by more than 3 hours: the schedule follows the new time; a smaller step fires no slot twice', async () => {
  const h = await cronHarness();
  const id = await h.add({ name: 'tick', cron: '* * * * *' });
  await h.advance(MIN);
  h.os.exit(h.alive()[0].pid, 0);
  const slots = () => [...h.os.processes.values()].map((p) => p.spec.env.SVC_CRON_SLOT);
  await h.settle();
  h.clock.stepBack(5 * 60 * MIN); // a clock 5 h fast, corrected
  // The wait for the next slot keeps what it had left (reconciler/due-timer.ts); that pass sees the mark ahead.
  await h.advance(2 * MIN);
  assert.deepEqual(slots(), [iso(T0 + MIN), iso(T0 + 3 * MIN - 5 * 60 * MIN)], 'fires on the new time');
  assert.equal(h.cronOf(id).next_fire_at, T0 + 4 * MIN - 5 * 60 * MIN);
  await h.close();

  const small = await cronHarness();
  await small.add({ name: 'tick', cron: '* * * * *' });
  await small.advance(MIN);
  small.os.exit(small.alive()[0].pid, 0);
  await small.settle();
  small.clock.stepBack(60 * MIN); // within cron's 3 hours: the repeated hour fires nothing again
  await small.advance(60 * MIN);
  const fired = [...small.os.processes.values()].map((p) => p.spec.env.SVC_CRON_SLOT);
  assert.deepEqual(fired, [iso(T0 + MIN)], 'nothing until the clock passes the mark');
  await small.advance(MIN);
  assert.deepEqual([...small.os.processes.values()].map((p) => p.spec.env.SVC_CRON_SLOT), [iso(T0 + MIN), iso(T0 + 2 * MIN)], 'then the next slot after it, once');
  await small.close();
});

test('a slot waiting for its jitter when svcd crashes fires at the same drawn time under the next daemon, not skipped as late', async () => {
  const HOUR = 60 * MIN;
  const h1 = await cronHarness();
  h1.setRandom(0.5);
  const id = await h1.add({ name: 'hourly', cron: '0 * * * *', jitter_sec: 600 });
  await h1.advanceTo(T0 + HOUR + 2 * MIN); // the 01:00 slot waits until 01:05
  assert.equal(h1.cronOf(id).next_fire_at, T0 + HOUR + 5 * MIN);
  assert.equal(h1.os.spawnCount, 0);
  await h1.down();
  await h1.marks.flush();
  const h = await cronHarness({ db: h1.db, os: h1.os, now: T0 + HOUR + 3 * MIN });
  h.setRandom(0.9); // a new draw would say 01:09
  await h.settle();
  assert.equal(h.cronOf(id).next_fire_at, T0 + HOUR + 5 * MIN, 'the same time');
  await h.advanceTo(T0 + HOUR + 5 * MIN - 1);
  assert.equal(h.os.spawnCount, 0);
  await h.advanceTo(T0 + HOUR + 5 * MIN);
  assert.equal(h.os.spawnCount, 1);
  assert.equal(h.alive()[0].spec.env.SVC_CRON_SLOT, iso(T0 + HOUR));
  assert.deepEqual(h.ofType('cron_skipped'), [], 'not taken for a missed slot');
  await h.close();
});

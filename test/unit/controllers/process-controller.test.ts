import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUICK_RESTART_MS, RESTART_PACE_MS } from '../../../controllers/process/backoff.js';
import { PAGE_SIZE } from '../../../controllers/os/proc-fs.js';
import { processHarness } from '../../helpers/process-harness.js';
import { StackApplier } from '../../../stacks/apply.js';
import { loadStackText } from '../../../stacks/load.js';

test('a new program is spawned and reported Running with process_started', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'web', command: 'node server.js --port 80' });
  assert.equal(h.status(id), 'Running');
  const proc = h.os.processes.get(h.pidOf(id))!;
  assert.equal(proc.spec.file, 'node');
  assert.deepEqual(proc.spec.args, ['server.js', '--port', '80']);
  assert.equal(proc.spec.cwd, '/srv');
  assert.equal(proc.spec.stdoutPath, `/srv/logs/${id}.out`);
  assert.equal(proc.spec.env.SVC_PROGRAM_NAME, 'web');
  assert.deepEqual(h.types(), ['process_started']);
  await h.close();
});

test('autostart false registers without starting; a start request starts it', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'idle', autostart: false });
  assert.equal(h.status(id), 'Stopped');
  assert.equal(h.os.spawnCount, 0);
  await h.actions.start([h.store.get(id)!]);
  assert.equal(h.status(id), 'Running');
  await h.close();
});

test('unexpected exit -> backoff with exponential delays: 1s, 2s, 4s (base 1s, factor 2, jitter 0 at random 0.5)', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'crashy' });
  const delays: number[] = [];
  for (let i = 0; i < 3; i++) {
    h.os.exit(h.pidOf(id), 1);
    await h.settle();
    assert.equal(h.status(id), 'Backoff');
    const o = h.observed.get(id);
    delays.push(o.next_retry_at! - h.clock.now());
    assert.equal(o.retries, i + 1);
    await h.advance(delays[i] - 1);
    assert.equal(h.status(id), 'Backoff', 'still waiting 1 ms before the retry time');
    await h.advance(1);
    assert.equal(h.status(id), 'Running');
  }
  assert.deepEqual(delays, [1000, 2000, 4000]);
  const backoffs = h.events.filter((e) => e.event === 'process_backoff');
  assert.deepEqual(backoffs.map((e) => e.retry_count), [1, 2, 3]);
  await h.close();
});

test('backoff delay is capped at backoff_max_secs and jittered by ±20%', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'capped', backoff_secs: 10, backoff_max_secs: 15 });
  h.setRandom(0);
  h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.observed.get(id).next_retry_at! - h.clock.now(), 8000, '10 s - 20%');
  await h.advance(8000);
  h.setRandom(0.999999);
  h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.observed.get(id).next_retry_at! - h.clock.now(), 18000, 'capped at 15 s, + 20%');
  await h.close();
});

test('backoff -> fatal when retry_limit is reached, with one process_backoff per step and one process_fatal', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'doomed', retry_limit: 2, backoff_secs: 0 });
  for (let i = 0; i < 3; i++) {
    h.os.exit(h.pidOf(id), 2);
    await h.advance(QUICK_RESTART_MS);
  }
  assert.equal(h.status(id), 'Fatal');
  assert.deepEqual(
    h.events.filter((e) => e.event === 'process_backoff' || e.event === 'process_fatal').map((e) => [e.event, e.retry_count]),
    [
      ['process_backoff', 1],
      ['process_backoff', 2],
      ['process_fatal', 2],
    ],
  );
  assert.equal(h.os.spawnCount, 3);
  await h.close();
});

test('retry_limit 0 goes Fatal on the first unexpected exit', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'once', retry_limit: 0 });
  h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.status(id), 'Fatal');
  await h.close();
});

test('a manual start clears Fatal and resets the retry counter', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'revive', retry_limit: 0 });
  h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.status(id), 'Fatal');
  await h.actions.start([h.store.get(id)!]);
  assert.equal(h.status(id), 'Running');
  assert.equal(h.observed.get(id).retries, 0);
  await h.close();
});

test('backoff_secs 0: a crash restarts at once; programs crashing together restart RESTART_PACE_MS apart, never back to back', async () => {
  const h = await processHarness();
  const ids = [await h.add({ name: 'fast-a', backoff_secs: 0 }), await h.add({ name: 'fast-b', backoff_secs: 0 }), await h.add({ name: 'fast-c', backoff_secs: 0 })];
  for (const id of ids) h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.os.spawnCount, 4, 'the first restarts at once');
  assert.deepEqual(ids.map((id) => h.status(id)), ['Running', 'Backoff', 'Backoff']);
  await h.advance(RESTART_PACE_MS - 1);
  assert.equal(h.os.spawnCount, 4, 'not before the pace');
  await h.advance(1);
  assert.equal(h.os.spawnCount, 5);
  await h.advance(RESTART_PACE_MS);
  assert.equal(h.os.spawnCount, 6);
  assert.deepEqual(ids.map((id) => h.status(id)), ['Running', 'Running', 'Running']);
  // A lone crash loop: each crash after the pace has passed restarts at once.
  await h.advance(RESTART_PACE_MS);
  h.os.exit(h.pidOf(ids[0]), 1);
  await h.settle();
  assert.equal(h.status(ids[0]), 'Running');
  assert.equal(h.os.spawnCount, 7);
  await h.close();
});

test('exitcodes: an expected exit with autorestart unexpected -> Exited, not restarted', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'job', exitcodes: [0, 3] });
  h.os.exit(h.pidOf(id), 3);
  await h.settle();
  assert.equal(h.status(id), 'Exited');
  await h.advance(120_000);
  assert.equal(h.os.spawnCount, 1);
  assert.equal(h.observed.get(id).last_exit?.reason, 'exit');
  await h.close();
});

test('exitcodes default [0]: exit 0 is expected, exit 1 is not', async () => {
  const h = await processHarness();
  const ok = await h.add({ name: 'ok' });
  const bad = await h.add({ name: 'bad' });
  h.os.exit(h.pidOf(ok), 0);
  h.os.exit(h.pidOf(bad), 1);
  await h.settle();
  assert.equal(h.status(ok), 'Exited');
  assert.equal(h.status(bad), 'Backoff');
  await h.close();
});

test('autorestart true restarts even expected exits; autorestart false never restarts', async () => {
  const h = await processHarness();
  const always = await h.add({ name: 'always', autorestart: 'true' });
  const never = await h.add({ name: 'never', autorestart: 'false' });
  h.os.exit(h.pidOf(always), 0);
  h.os.exit(h.pidOf(never), 1);
  await h.settle();
  assert.equal(h.status(always), 'Backoff');
  assert.equal(h.status(never), 'Exited');
  await h.advance(1000);
  assert.equal(h.status(always), 'Running');
  assert.equal(h.status(never), 'Exited');
  await h.close();
});

test('running resets retries after startsecs of stable run', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'flaky', startsecs: 5, retry_limit: 1, backoff_secs: 0 });
  h.os.exit(h.pidOf(id), 1);
  await h.advance(QUICK_RESTART_MS);
  assert.equal(h.observed.get(id).retries, 1);
  await h.advance(4999);
  assert.equal(h.observed.get(id).retries, 1, 'not yet stable');
  await h.advance(1);
  assert.equal(h.observed.get(id).retries, 0, 'stable: counter reset');
  h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.status(id), 'Running', 'a fresh retry budget, not Fatal: restarted at once (backoff_secs 0)');
  assert.equal(h.observed.get(id).retries, 1);
  await h.close();
});

test('every exit counts, not only exits before startsecs: quick crashes after a stable run still go Fatal', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'storm', startsecs: 10, retry_limit: 2, backoff_secs: 0 });
  await h.advance(60_000);
  for (let i = 0; i < 3; i++) {
    h.os.exit(h.pidOf(id), 1);
    await h.advance(QUICK_RESTART_MS);
  }
  assert.equal(h.status(id), 'Fatal');
  await h.close();
});

test('stop sends SIGTERM to the group, and SIGKILL after stopsecs if the process ignores it', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'stubborn', stopsecs: 3 });
  const pid = h.pidOf(id);
  h.os.ignoreTerm.add(pid);
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false }));
  await h.settle();
  assert.equal(h.status(id), 'Stopping');
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM']);
  await h.advance(2999);
  assert.equal(h.status(id), 'Stopping');
  await h.advance(1);
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.equal(h.status(id), 'Stopped');
  const exit = h.events.find((e) => e.event === 'process_exit');
  assert.equal(exit?.signal, 9);
  assert.match(exit.msg, /stopped on request/);
  await h.close();
});

test('a forced stop sends SIGKILL at once, also during a graceful stop', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'k', stopsecs: 30 });
  const pid = h.pidOf(id);
  h.os.ignoreTerm.add(pid);
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false }));
  await h.settle();
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: true }));
  await h.settle();
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.equal(h.status(id), 'Stopped');
  await h.close();
});

test('a stop asked while a restart is stopping the process takes it over: force kills at once, the exit is a stop, nothing starts', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'slow', stopsecs: 30 });
  const pid = h.pidOf(id);
  h.os.ignoreTerm.add(pid);
  await h.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  await h.settle();
  assert.equal(h.status(id), 'Stopping');
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: true }));
  await h.settle();
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL'], 'not left to the restart\'s 30 s');
  assert.equal(h.status(id), 'Stopped');
  assert.match(h.events.find((e) => e.event === 'process_exit')!.msg, /^stopped on request/);
  await h.advance(60_000);
  assert.equal(h.os.spawnCount, 1);
  await h.close();
});

test('a removal while a restart is stopping the process is recorded as the removal, and nothing starts', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'gone', stopsecs: 30 });
  h.os.ignoreTerm.add(h.pidOf(id));
  await h.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  await h.settle();
  await h.store.remove([id]);
  await h.advance(30_000);
  assert.match(h.events.find((e) => e.event === 'process_exit')!.msg, /^stopped because the program was removed/);
  assert.equal(h.os.spawnCount, 1);
  assert.equal(h.controller.owns(id), false);
  await h.close();
});

test('a removed program is departing (its last record and pid) until its process has ended, and no longer', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'slow', stopsecs: 30 });
  const kept = await h.add({ name: 'kept' });
  const pid = h.pidOf(id);
  h.os.ignoreTerm.add(pid);
  assert.deepEqual(h.departing.list(), []);
  await h.store.remove([id]);
  await h.settle();
  assert.deepEqual(h.departing.list().map((d) => [d.record.id, d.record.config.name, d.pid]), [[id, 'slow', pid]]);
  const forced = h.actions.endDeparting(h.departing.get(id)!, true);
  await h.settle();
  const outcome = await forced;
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.deepEqual({ ok: outcome.ok, status: outcome.status, name: outcome.name, error: outcome.error }, { ok: true, status: 'Removed', name: 'slow', error: undefined });
  assert.deepEqual(h.departing.list(), [], 'gone with its process');
  await h.store.remove([kept]); // a process that ends on SIGTERM departs too, briefly
  await h.settle();
  assert.deepEqual(h.departing.list(), []);
  await h.close();
});

test('a start of a program whose dependency nothing starts answers at once, naming it; starting the dependency starts both', async () => {
  const h = await processHarness();
  const db = await h.add({ name: 'db', autostart: false });
  const web = await h.add({ name: 'web', autostart: false, depends_on: ['db'] });
  const [held] = await h.actions.start([h.store.get(web)!]);
  assert.equal(held.status, 'Starting');
  assert.equal(held.error, undefined, 'not "still Starting after 10 s"');
  assert.equal(held.note, 'waiting for db (Stopped), which nothing is starting: start it too, and web follows');
  const both = await h.actions.start([h.store.get(web)!, h.store.get(db)!]);
  assert.deepEqual(both.map((o) => [o.name, o.status, o.note]), [['web', 'Running', undefined], ['db', 'Running', undefined]], 'db on its way is no stall');
  await h.close();
});

test('a stop cancels a pending backoff retry', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'b' });
  h.os.exit(h.pidOf(id), 1);
  await h.settle();
  assert.equal(h.status(id), 'Backoff');
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped' }));
  await h.settle();
  assert.equal(h.status(id), 'Stopped');
  await h.advance(60_000);
  assert.equal(h.os.spawnCount, 1);
  await h.close();
});

test('restart stops the live process and starts a new one; the exit is not counted as a crash', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'r' });
  const first = h.pidOf(id);
  await h.actions.restart([h.store.get(id)!]);
  assert.equal(h.status(id), 'Running');
  assert.notEqual(h.pidOf(id), first);
  assert.equal(h.observed.get(id).restarts, 0);
  assert.match(h.events.find((e) => e.event === 'process_exit')!.msg, /stopped for a restart/);
  await h.close();
});

test('start on a running program is a no-op; reconcile twice is harmless', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'once' });
  await h.actions.start([h.store.get(id)!]);
  h.manager.enqueue('process', id);
  h.manager.enqueue('process', id);
  await h.settle();
  assert.equal(h.os.spawnCount, 1);
  await h.close();
});

test('a spawn failure that may heal goes through the restart policy and is recorded', async () => {
  const h = await processHarness();
  h.os.failSpawn.set('busy', 'busy: EAGAIN');
  const id = await h.add({ name: 'm', command: 'busy', retry_limit: 1, backoff_secs: 0 });
  await h.advance(QUICK_RESTART_MS);
  assert.equal(h.status(id), 'Fatal');
  const msgs = h.events.map((e) => `${e.event}: ${e.msg}`);
  assert.ok(msgs.some((m) => m.startsWith('process_exit: spawn failed: busy: EAGAIN')), msgs.join('\n'));
  assert.ok(msgs.some((m) => m.startsWith('process_backoff: spawn failed: busy: EAGAIN; retry 1/1')), msgs.join('\n'));
  assert.ok(msgs.some((m) => m.startsWith('process_fatal')));
  await h.close();
});

test('startsecs 0: a failed spawn is not a stable run, so retry_limit still ends the retries and the backoff grows', async () => {
  const h = await processHarness();
  h.os.failSpawn.set('busy', 'busy: EAGAIN');
  const id = await h.add({ name: 'z', command: 'busy', startsecs: 0, retry_limit: 2 });
  await h.advance(1000);
  await h.advance(2000);
  assert.equal(h.status(id), 'Fatal');
  const backoffs = h.events.filter((e) => e.event === 'process_backoff').map((e) => e.msg);
  assert.deepEqual(backoffs, ['spawn failed: busy: EAGAIN; retry 1/2 in 1000 ms', 'spawn failed: busy: EAGAIN; retry 2/2 in 2000 ms']);
  await h.close();
});

test('a spawn failure that cannot heal (command not found, permission denied) goes Fatal at once with the reason', async () => {
  const h = await processHarness();
  h.os.failSpawn.set('missing', 'command not found: missing (cwd /srv)');
  h.os.failSpawn.set('/srv/data.txt', 'permission denied: /srv/data.txt');
  for (const [name, command] of [['m', 'missing'], ['p', '/srv/data.txt']] as const) {
    // No retry_limit: before, this looped in Backoff for ever.
    const id = await h.add({ name, command, backoff_secs: 0 });
    assert.equal(h.status(id), 'Fatal', name);
    const o = h.observed.get(id);
    assert.match(o.detail ?? '', /^spawn failed: (command not found|permission denied): /);
    assert.equal(o.next_retry_at, null);
    const fatal = h.events.filter((e) => e.program_id === id && e.event === 'process_fatal');
    assert.equal(fatal.length, 1, name);
    assert.match(fatal[0].msg, new RegExp(`not retried: .*svc start ${name}\\)$`));
    assert.ok(!h.events.some((e) => e.program_id === id && e.event === 'process_backoff'), `${name}: no backoff`);
  }
  const spawnsBefore = h.os.spawnCount;
  await h.advance(QUICK_RESTART_MS * 10);
  assert.equal(h.os.spawnCount, spawnsBefore, 'nothing retries by itself');
  // Fixed (the command exists now): a manual start runs it.
  h.os.failSpawn.delete('missing');
  const m = h.store.list().find((r) => r.config.name === 'm')!;
  await h.actions.start([m]);
  assert.equal(h.status(m.id), 'Running');
  assert.equal(h.observed.get(m.id).detail, null);
  await h.close();
});

test('a missing env_file is a clear error at start, recorded as an event', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'e', env_file: 'app.env', autorestart: 'false' });
  assert.equal(h.status(id), 'Exited');
  assert.match(h.observed.get(id).last_exit!.msg, /env_file: cannot read \/srv\/app\.env: ENOENT/);
  h.os.files.set('/srv/app.env', 'A=1\nB="two words"\n');
  await h.actions.start([h.store.get(id)!]);
  const spec = h.os.processes.get(h.pidOf(id))!.spec;
  assert.equal(spec.env.A, '1');
  assert.equal(spec.env.B, 'two words');
  await h.close();
});

test('an argument or variable longer than exec takes is named, with where it comes from, not left to E2BIG', async () => {
  const h = await processHarness();
  const big = 'x'.repeat(32 * PAGE_SIZE);
  const env = await h.add({ name: 'e', env: { BIG: big, SMALL: 'y' }, autorestart: 'false' });
  assert.equal(h.observed.get(env).last_exit!.msg, `spawn failed: env.BIG: ${big.length + 4} bytes with its name, more than the ${32 * PAGE_SIZE - 1} bytes exec takes for one variable`);
  const arg = await h.add({ name: 'a', command: 'sleep', args: ['1', big], autorestart: 'false' });
  assert.match(h.observed.get(arg).last_exit!.msg, /^spawn failed: args\[1\]: an argument of \d+ bytes, more than the \d+ bytes exec takes for one$/);
  h.os.files.set('/srv/big.env', `HUGE=${big}\n`);
  const file = await h.add({ name: 'f', env_file: 'big.env', autorestart: 'false' });
  assert.match(h.observed.get(file).last_exit!.msg, /^spawn failed: env_file: variable 'HUGE': \d+ bytes with its name/);
  // Just under the limit starts: "NAME=value" and its NUL fit exactly.
  const fits = await h.add({ name: 'ok', env: { A: 'x'.repeat(32 * PAGE_SIZE - 3) } });
  assert.equal(h.status(fits), 'Running');
  await h.close();
});

test('user switching without root is a clear error naming the field', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'u', user: 'nobody', autorestart: 'false' });
  assert.match(h.observed.get(id).last_exit!.msg, /user: svcd is not running as root and cannot switch to user 'nobody'/);
  h.os.rootUser = true;
  await h.actions.start([h.store.get(id)!]);
  const spec = h.os.processes.get(h.pidOf(id))!.spec;
  assert.equal(spec.uid, 65534);
  assert.equal(spec.gid, 65534);
  await h.close();
});

test("a user's supplementary groups come with it, after the gid it runs as; a group alone gets none", async () => {
  const h = await processHarness();
  h.os.rootUser = true;
  h.os.users.set('app', { name: 'app', uid: 1100, gid: 1100, home: '/srv/app', groups: [103, 998] });
  const spec = (id: string) => h.os.processes.get(h.pidOf(id))!.spec;
  const user = spec(await h.add({ name: 'u', user: 'app' }));
  assert.deepEqual([user.uid, user.gid, user.groups, user.env.HOME, user.env.USER], [1100, 1100, [1100, 103, 998], '/srv/app', 'app']);
  const both = spec(await h.add({ name: 'ug', user: 'app', group: 'nogroup' }));
  assert.deepEqual([both.uid, both.gid, both.groups], [1100, 65534, [65534, 103, 998]]);
  const group = spec(await h.add({ name: 'g', group: 'nogroup' }));
  assert.deepEqual([group.uid, group.gid, group.groups], [undefined, 65534, undefined]);
  await h.close();
});

test('removing a program stops its process gracefully, then forgets it', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'gone' });
  const pid = h.pidOf(id);
  await h.store.remove([id]);
  await h.settle();
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM']);
  assert.equal(h.observed.has(id), false);
  assert.match(h.events.at(-1)!.msg, /removed/);
  assert.equal(h.events.at(-1)!.program_name, 'gone', 'the exit of a removed program still names it');
  assert.equal(h.events.at(-1)!.program_id, id);
  await h.close();
});

test('a service renamed in its stack starts only once the program it replaces has stopped; programs of other writes are not held', async () => {
  const h = await processHarness();
  const applier = new StackApplier(h.store, { logDir: '/srv/logs', now: () => h.clock.now() });
  const apply = (names: string[]) => applier.apply({ stack: loadStackText(JSON.stringify({ services: names.map((name) => ({ name, command: 'app', stopsecs: 5 })) }), 'json'), source: 'stack:web.toml', prune: true });
  await apply(['web']);
  await h.settle();
  const old = h.store.getByName('web')!.id;
  const oldPid = h.pidOf(old);
  h.os.ignoreTerm.add(oldPid); // it takes its time to stop (up to stopsecs)
  const other = await h.add({ name: 'elsewhere', autostart: false, source: 'cli:add' });

  await apply(['web-api']); // the rename: web pruned, web-api created, in one write
  await h.settle();
  const renamed = h.store.getByName('web-api')!.id;
  assert.deepEqual(h.os.processes.get(oldPid)!.signals, ['SIGTERM'], 'the old one is stopping');
  assert.equal(h.status(renamed), 'Starting', 'not started beside the old one');
  assert.equal(h.os.spawnCount, 1);
  assert.match(h.observed.get(renamed).detail ?? '', /waiting for web \(removed in the same change\) to stop/);
  await h.actions.start([h.store.get(other)!]);
  assert.equal(h.status(other), 'Running', 'a program of another write is not held');

  await h.advance(5000); // SIGKILL at stopsecs: the old process is gone
  assert.deepEqual(h.os.processes.get(oldPid)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.equal(h.status(renamed), 'Running');
  const order = h.events.filter((e) => (e.event === 'process_exit' && e.program_name === 'web') || (e.event === 'process_started' && e.program_name === 'web-api')).map((e) => `${e.event} ${e.program_name}`);
  assert.deepEqual(order, ['process_exit web', 'process_started web-api']);
  await h.close();
});

test('a forced removal kills at once (SIGKILL) a process that ignores SIGTERM; a refused one signals nothing', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'stubborn', stopsecs: 30 });
  const pid = h.pidOf(id);
  h.os.ignoreTerm.add(pid);
  const removing = h.actions.remove([h.store.get(id)!], true);
  await h.settle();
  const [outcome] = await removing;
  assert.equal(outcome.ok, true);
  assert.ok(h.os.processes.get(pid)!.signals.includes('SIGKILL'), 'killed without waiting for stopsecs');
  assert.equal(h.observed.has(id), false, 'gone');
  assert.match(h.events.at(-1)!.msg, /removed/);

  const db = await h.add({ name: 'db' });
  await h.add({ name: 'web', depends_on: ['db'] });
  await assert.rejects(h.actions.remove([h.store.get(db)!], true), /web/);
  assert.deepEqual(h.os.processes.get(h.pidOf(db))!.signals, [], 'a refused removal leaves the process alone');
  await h.close();
});

test('many programs stop in descending priority, one level at a time', async () => {
  const h = await processHarness();
  const a = await h.add({ name: 'db', priority: 1 });
  const b = await h.add({ name: 'api', priority: 5 });
  const c = await h.add({ name: 'web', priority: 10 });
  await h.actions.stop([a, b, c].map((id) => h.store.get(id)!), false);
  const order = h.events.filter((e) => e.event === 'process_exit').map((e) => e.program_name);
  assert.deepEqual(order, ['web', 'api', 'db']);
  await h.close();
});

test('signal is delivered to a live process and refused for a stopped one', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 's' });
  const [sent] = h.actions.signal([h.store.get(id)!], 'hup');
  assert.equal(sent.ok, true);
  assert.deepEqual(h.os.processes.get(h.pidOf(id))!.signals, ['SIGHUP']);
  assert.throws(() => h.actions.signal([h.store.get(id)!], 'bogus'), /signal: 'bogus' is not one of hup, int, term, kill, quit, usr1, usr2/);
  // A body without a signal, or with a number, says so (it said "'undefined' is not one of ...").
  assert.throws(() => h.actions.signal([h.store.get(id)!], undefined), { message: 'signal: is required, one of hup, int, term, kill, quit, usr1, usr2' });
  assert.throws(() => h.actions.signal([h.store.get(id)!], 9), { message: 'signal: must be a string, one of hup, int, term, kill, quit, usr1, usr2' });
  await h.actions.stop([h.store.get(id)!], false);
  const [refused] = h.actions.signal([h.store.get(id)!], 'usr1');
  assert.equal(refused.ok, false);
  assert.match(refused.error!, /not running \(status Stopped\)/);
  await h.close();
});

test('hooks.pre_start runs before each start in the program environment; a failing one fails the start', async () => {
  const h = await processHarness();
  h.os.hookExitCodes.set('prepare', 3);
  const id = await h.add({ name: 'hooked', hooks: { pre_start: 'prepare --db' }, retry_limit: 0, env: { A: '1' } });
  assert.equal(h.status(id), 'Fatal');
  assert.match(h.observed.get(id).last_exit!.msg, /spawn failed: hooks\.pre_start failed: exit code 3/);
  assert.equal(h.os.hookRuns[0].file, 'prepare');
  assert.deepEqual(h.os.hookRuns[0].args, ['--db']);
  assert.equal(h.os.hookRuns[0].env.SVC_HOOK, 'pre_start');
  assert.equal(h.os.hookRuns[0].env.A, '1');
  h.os.hookExitCodes.set('prepare', 0);
  await h.actions.start([h.store.get(id)!]);
  assert.equal(h.status(id), 'Running');
  await h.close();
});

test('hooks.post_stop runs after the process ends, with the exit described in its environment', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'cleanup', hooks: { post_stop: 'cleanup.sh' }, autorestart: 'false' });
  h.os.exit(h.pidOf(id), 4);
  await h.settle();
  const run = h.os.hookRuns.find((r) => r.env.SVC_HOOK === 'post_stop')!;
  assert.equal(run.file, 'cleanup.sh');
  assert.equal(run.env.SVC_EXIT_CODE, '4');
  assert.equal(run.env.SVC_EXIT_REASON, 'crash');
  await h.close();
});

test('a program with cron is left to the cron controller: never spawned nor published here', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'nightly', cron: '0 3 * * *' });
  assert.equal(h.store.get(id)!.intent.run, 'running', 'the schedule is active from creation');
  assert.equal(h.os.spawnCount, 0);
  assert.equal(h.observed.has(id), false);
  await h.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 }));
  await h.settle();
  assert.equal(h.os.spawnCount, 0);
  await h.close();
});

test('a running program that gains cron is stopped here and its observed entry is kept for the cron controller', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'web' });
  const pid = h.pidOf(id);
  h.os.ignoreTerm.add(pid); // a process that takes its time to stop
  await h.store.update(id, (c) => ({ ...c, cron: '* * * * *' }));
  await h.settle();
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM']);
  assert.equal(h.observed.has(id), true);
  // The cron controller holds the schedule's runs while the service process is still there.
  assert.equal(h.observed.get(id).former_pid, pid);
  h.os.exit(pid, 0);
  await h.settle();
  assert.equal(h.observed.get(id).former_pid, undefined);
  assert.equal(h.observed.has(id), true);
  await h.close();
});

test('a program whose cron is removed starts only once the runs of its former schedule have ended', async () => {
  const h = await processHarness();
  const id = await h.add({ name: 'sync', cron: '* * * * *' });
  // What the cron controller publishes while a run is in flight, and withdraws when the last run is gone.
  const cron = { next_fire_at: null, running: 1, queued: 0, skipped: 0, dropped: 0, last_run: null };
  h.observed.update(id, { status: 'Running', pid: 4242, cron });
  await h.store.update(id, (c) => ({ ...c, cron: undefined }));
  await h.settle();
  assert.equal(h.os.spawnCount, 0, 'it started beside the run being stopped');
  assert.equal(h.observed.get(id).detail, 'waiting for the run of its former cron schedule to end');
  h.observed.update(id, { cron: undefined });
  await h.settle();
  assert.equal(h.os.spawnCount, 1);
  assert.equal(h.observed.get(id).status, 'Running');
  await h.close();
});

test('a wall clock stepped back delays no SIGKILL, retry or quick restart by the step', async () => {
  const HOUR = 3_600_000;
  const h = await processHarness();
  // A stop's SIGKILL comes at most stopsecs after svcd notices the step (its wait for the deadline
  // ends when it would have), not an hour later.
  const stubborn = await h.add({ name: 'stubborn', stopsecs: 10 });
  const pid = h.pidOf(stubborn);
  h.os.ignoreTerm.add(pid);
  await h.store.setIntents([stubborn], (i) => ({ ...i, run: 'stopped' }));
  await h.settle();
  await h.advance(2_000);
  h.clock.stepBack(HOUR);
  await h.advance(8_000 + 10_000);
  assert.deepEqual(h.os.processes.get(pid)!.signals, ['SIGTERM', 'SIGKILL']);
  // A retry 5 s after a crash comes at most 5 s after svcd notices the step, not an hour later.
  const flaky = await h.add({ name: 'flaky', backoff_secs: 5 });
  h.os.exit(h.pidOf(flaky), 1);
  await h.settle();
  assert.equal(h.status(flaky), 'Backoff');
  h.clock.stepBack(HOUR);
  await h.advance(5_000);
  assert.equal(h.status(flaky), 'Backoff');
  await h.advance(5_000);
  assert.equal(h.status(flaky), 'Running');
  // A crash loop with backoff_secs = 0 goes on at once: the daemon-wide pace is not an hour ahead.
  const fast = await h.add({ name: 'fast', backoff_secs: 0 });
  h.os.exit(h.pidOf(fast), 1);
  await h.settle();
  h.clock.stepBack(HOUR);
  await h.advance(RESTART_PACE_MS);
  h.os.exit(h.pidOf(fast), 1);
  await h.settle();
  await h.advance(RESTART_PACE_MS);
  assert.equal(h.status(fast), 'Running');
  assert.equal(h.observed.get(fast).restarts, 2);
  // And the pace holds again from the new time: two crashes in the same moment are RESTART_PACE_MS apart.
  h.os.exit(h.pidOf(fast), 1);
  await h.settle();
  assert.equal(h.status(fast), 'Running');
  h.os.exit(h.pidOf(fast), 1);
  await h.settle();
  assert.equal(h.status(fast), 'Backoff', 'paced');
  await h.advance(RESTART_PACE_MS);
  assert.equal(h.status(fast), 'Running');
  await h.close();
});

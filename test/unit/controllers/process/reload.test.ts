import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXEC_CHECK, reloadHarness } from '../../../helpers/reload-harness.js';
import { NO_HEALTH_CHECK_NOTE, reloadTimeoutMs } from '../../../../state/reload.js';
import { planProcess } from '../../../../controllers/process/plan.js';
import { initialProcState } from '../../../../controllers/process/proc-state.js';
import { withDefaults } from '../../../../state/program.js';

/**
 * svc reload as the process and health controllers converge it (docs/reload.md): the edges of
 * the reload, with the fake clock and the fake OS; exec probes pass for the pids in `healthy`.
 */

async function healthyProgram(h: Awaited<ReturnType<typeof reloadHarness>>, over: Record<string, unknown> = {}) {
  const id = await h.add({ name: 'web', health_check: { ...EXEC_CHECK }, ...over });
  h.healthy.add(h.pidOf(id));
  await h.advance(1000);
  assert.equal(h.observed.get(id).status, 'Healthy');
  return { id, old: h.pidOf(id) };
}

const successorPid = (h: Awaited<ReturnType<typeof reloadHarness>>, id: string) => h.observed.get(id).reload!.pid;

test('reload bound: start period, then enough probes to pass or fail, each an interval plus its timeout', () => {
  assert.equal(reloadTimeoutMs({ start_period_secs: 0, interval_secs: 10, timeout_secs: 5, failure_threshold: 3, success_threshold: 1 }), 60_000, 'the defaults: 60 s');
  assert.equal(reloadTimeoutMs({ start_period_secs: 20, interval_secs: 1, timeout_secs: 1, failure_threshold: 3, success_threshold: 1 }), 28_000);
});

test('successor -> program process once Healthy; the old one is stopped only then, and Healthy never lapses', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  await h.requestReload(id);
  const next = successorPid(h, id);
  assert.deepEqual(h.alivePids().sort(), [old, next].sort(), 'both run side by side');
  assert.equal(h.observed.get(id).pid, old, 'the old process is still the program\'s process');
  assert.equal(h.observed.get(id).reload?.phase, 'successor');
  assert.equal(h.os.processes.get(next)!.spec.env.SVC_PROGRAM_ID, id, 'the successor is the program (same spawn spec)');
  await h.advance(1000); // its first probe fails: still waiting
  assert.deepEqual(h.os.processes.get(old)!.signals, [], 'the old process is untouched while the successor is not Healthy');
  const statuses: string[] = [];
  h.observed.subscribe((cid, o) => cid === id && o && statuses.push(o.status));
  h.healthy.add(next);
  await h.advance(1000);
  assert.equal(h.observed.get(id).pid, next);
  assert.deepEqual(h.os.processes.get(old)!.signals, ['SIGTERM']);
  assert.deepEqual(h.alivePids(), [next]);
  assert.equal(h.observed.get(id).status, 'Healthy');
  assert.ok(!statuses.includes('Running') && !statuses.includes('Stopped'), `no lapse: ${statuses.join(' ')}`);
  assert.equal(h.observed.get(id).reload, null);
  assert.equal(h.observed.get(id).last_reload?.result, 'reloaded');
  assert.deepEqual(h.types().filter((t) => t.startsWith('reload_') || t === 'process_exit'), ['reload_started', 'reload_succeeded', 'process_exit']);
  assert.match(h.events.find((e) => e.event === 'process_exit')!.msg ?? '', new RegExp(`pid ${old} stopped after a reload`));
  await h.runtime.flush();
  assert.equal((await h.runtime.loadAll()).get(id)?.pid, next, 'the runtime record names the new process');
  const probes = h.probed.length;
  await h.advance(2000);
  assert.deepEqual(h.probed.slice(probes), [next, next], 'the new process is probed on as the program\'s');
  await h.close();
});

test('successor judged Unhealthy: it is stopped, the old one keeps running, reload_failed says why', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  await h.requestReload(id);
  const next = successorPid(h, id);
  await h.advance(3000); // three failed probes: failure_threshold
  assert.deepEqual(h.os.processes.get(next)!.signals, ['SIGTERM']);
  assert.deepEqual(h.alivePids(), [old]);
  assert.deepEqual(h.os.processes.get(old)!.signals, []);
  const o = h.observed.get(id);
  assert.equal(o.pid, old);
  assert.equal(o.status, 'Healthy');
  assert.equal(o.last_reload?.result, 'failed');
  const failed = h.events.find((e) => e.event === 'reload_failed')!;
  assert.match(failed.msg ?? '', new RegExp(`pid ${next} is Unhealthy \\(last probe: pid ${next} not ready\\); stopping pid ${next}; pid ${old} keeps running`));
  const ended = h.events.filter((e) => e.event === 'process_exit');
  assert.deepEqual(
    ended.map((e) => e.msg),
    [`pid ${next} stopped because its reload failed (the new process of that reload): killed by signal 15 (SIGTERM)`],
    'the failed reload\'s new process has its end in the history, as any process',
  );
  await h.close();
});

test('failures in start_period do not count: the successor has the start period, then failure_threshold probes', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h, { health_check: { ...EXEC_CHECK, start_period_secs: 100 } });
  await h.requestReload(id);
  const next = successorPid(h, id);
  assert.equal(h.observed.get(id).reload?.timeout_ms, 100_000 + 4 * 2000);
  await h.advance(100_000);
  assert.deepEqual(h.alivePids().sort(), [old, next].sort(), 'still in its start period');
  await h.advance(3000);
  assert.deepEqual(h.alivePids(), [old], 'Unhealthy after the start period and three failures');
  await h.close();
});

test('no verdict by the bound (probes that never answer): the successor is stopped at the deadline', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  h.hanging.add(old + 1); // the successor's pid (the fake OS counts up)
  await h.requestReload(id);
  const next = successorPid(h, id);
  assert.equal(next, old + 1);
  await h.advance(8000 - 1);
  assert.deepEqual(h.alivePids().sort(), [old, next].sort());
  await h.advance(1);
  assert.deepEqual(h.alivePids(), [old]);
  assert.match(h.observed.get(id).last_reload?.msg ?? '', /was not Healthy within 8 s/);
  await h.close();
});

test('a check changed during a reload moves its bound, counted from the new process\'s start: longer waits, shorter may end it at once', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  h.hanging.add(old + 1);
  await h.requestReload(id);
  const next = successorPid(h, id);
  const startedAt = h.clock.now();
  assert.equal(h.observed.get(id).reload?.deadline, startedAt + 8000, 'EXEC_CHECK: 8 s');
  await h.advance(5000);
  // The operator gives the new process a start period of 20 s: 28 s from its start, not 8.
  await h.store.update(id, (c) => ({ ...c, health_check: { ...EXEC_CHECK, start_period_secs: 20 } }));
  await h.settle();
  assert.equal(h.observed.get(id).reload?.deadline, startedAt + 28_000);
  assert.equal(h.observed.get(id).reload?.timeout_ms, 28_000);
  await h.advance(10_000);
  assert.deepEqual(h.alivePids().sort(), [old, next].sort(), 'past the old bound, within the new one');
  // Back to the old check: its 8 s from the start are long over, so the reload ends now.
  await h.store.update(id, (c) => ({ ...c, health_check: { ...EXEC_CHECK } }));
  await h.settle();
  assert.deepEqual(h.alivePids(), [old]);
  assert.match(h.observed.get(id).last_reload?.msg ?? '', /was not Healthy within 8 s/);
  await h.close();
});

test('a health check disabled or removed during a reload fails it at once, saying why, not at the deadline as "not Healthy within"', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h, { health_check: { ...EXEC_CHECK, start_period_secs: 100 } });
  for (const check of [{ ...EXEC_CHECK, start_period_secs: 100, enabled: false }, undefined]) {
    await h.requestReload(id);
    const next = successorPid(h, id);
    await h.store.update(id, (c) => ({ ...c, health_check: check }));
    await h.settle();
    assert.deepEqual(h.alivePids(), [old], 'the new process is stopped at once; the old one runs on');
    assert.equal(h.observed.get(id).last_reload?.msg, `reload failed: health_check was disabled or removed during the reload, so nothing can judge pid ${next}; stopping pid ${next}; pid ${old} keeps running`);
    await h.store.update(id, (c) => ({ ...c, health_check: { ...EXEC_CHECK, start_period_secs: 100 } }));
    await h.settle();
  }
  await h.close();
});

test('a successor that exits (or cannot start) fails the reload; the old one keeps running', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  await h.requestReload(id);
  h.os.exit(successorPid(h, id), 1);
  await h.settle();
  assert.equal(h.observed.get(id).last_reload?.result, 'failed');
  assert.match(h.observed.get(id).last_reload?.msg ?? '', /ended before it was Healthy: crashed: exit code 1; pid \d+ keeps running/);
  h.os.failSpawn.set('app', 'command not found: app');
  await h.requestReload(id);
  assert.match(h.observed.get(id).last_reload?.msg ?? '', /could not start: command not found: app/);
  assert.deepEqual(h.alivePids(), [old]);
  assert.equal(h.observed.get(id).status, 'Healthy');
  await h.close();
});

test('without a health check a reload is a plain restart, and says so', async () => {
  const h = await reloadHarness();
  const id = await h.add({ name: 'plain' });
  const old = h.pidOf(id);
  const answer = h.actions.reload([h.store.get(id)!]);
  await h.settle();
  const [outcome] = await answer;
  assert.notEqual(h.pidOf(id), old);
  assert.deepEqual(h.alivePids(), [h.pidOf(id)]);
  assert.equal(outcome.ok, true);
  assert.equal(outcome.note, NO_HEALTH_CHECK_NOTE);
  assert.ok(!h.types().includes('reload_started'));
  await h.close();
});

test('a reload of a stopped program starts it', async () => {
  const h = await reloadHarness();
  const id = await h.add({ name: 'idle', autostart: false, health_check: { ...EXEC_CHECK } });
  await h.requestReload(id);
  assert.equal(h.alivePids().length, 1);
  assert.equal(h.observed.get(id).last_reload?.result, 'started');
  await h.close();
});

test('the API answer: ok with who took over, or ok false with the reason', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  let answer = h.actions.reload([h.store.get(id)!]);
  await h.settle();
  h.healthy.add(successorPid(h, id));
  await h.advance(1000);
  let [outcome] = await answer;
  assert.equal(outcome.ok, true);
  assert.match(outcome.note ?? '', new RegExp(`is Healthy and took over from pid ${old}`));
  answer = h.actions.reload([h.store.get(id)!]);
  await h.settle();
  await h.advance(3000);
  [outcome] = await answer;
  assert.equal(outcome.ok, false);
  assert.match(outcome.error ?? '', /reload failed: pid \d+ is Unhealthy/);
  await h.close();
});

test('a stop during a reload stops both processes; a restart cancels the successor', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  await h.requestReload(id);
  const next = successorPid(h, id);
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false }));
  await h.settle();
  assert.deepEqual(h.alivePids(), []);
  assert.equal(h.observed.get(id).status, 'Stopped');
  assert.match(h.observed.get(id).last_reload?.msg ?? '', /cancelled by stop/);
  assert.deepEqual([h.os.processes.get(old)!.signals, h.os.processes.get(next)!.signals], [['SIGTERM'], ['SIGTERM']]);
  await h.close();
});

test('a reload cancelled by a stop, a restart or a removal does not claim the old process keeps running', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  const cancel = async (write: () => Promise<unknown>) => {
    await h.requestReload(id);
    const next = successorPid(h, id);
    const pid = h.pidOf(id);
    await write();
    await h.settle();
    const failed = h.events.filter((e) => e.event === 'reload_failed').at(-1)!;
    return { msg: failed.msg ?? '', next, pid };
  };
  let c = await cancel(() => h.store.setIntents([id], (i) => ({ ...i, restart_seq: i.restart_seq + 1 })));
  assert.equal(c.pid, old);
  assert.equal(c.msg, `reload failed: cancelled by restart; stopping pid ${c.next}; pid ${old} is restarted`);
  await h.advance(1000);
  c = await cancel(() => h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false })));
  assert.equal(c.msg, `reload failed: cancelled by stop; stopping pid ${c.next}; pid ${c.pid} stops too`);
  assert.equal(h.observed.get(id).last_reload?.msg, c.msg, 'svc info shows the same');
  await h.store.setIntents([id], (i) => ({ ...i, run: 'running', start_seq: i.start_seq + 1 }));
  await h.settle();
  c = await cancel(() => h.store.remove([id]));
  assert.equal(c.msg, `reload failed: cancelled by remove; stopping pid ${c.next}; pid ${c.pid} stops too`);
  assert.deepEqual(h.alivePids(), []);
  await h.close();
});

test('svc stop --force and svc rm --force during a reload kill the new process at once too, not after its stopsecs', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h, { stopsecs: 30 });
  await h.requestReload(id);
  let next = successorPid(h, id);
  h.os.ignoreTerm.add(next);
  await h.actions.stop([h.store.get(id)!], true);
  assert.deepEqual(h.alivePids(), [], 'nothing waits for the 30 s of stopsecs');
  assert.deepEqual([h.os.processes.get(old)!.signals, h.os.processes.get(next)!.signals], [['SIGKILL'], ['SIGKILL']]);
  assert.equal(h.observed.get(id).status, 'Stopped');
  await h.actions.start([h.store.get(id)!]);
  h.healthy.add(h.pidOf(id));
  await h.advance(1000);
  const running = h.pidOf(id);
  h.os.ignoreTerm.add(running);
  await h.requestReload(id);
  next = successorPid(h, id);
  h.os.ignoreTerm.add(next);
  const [removed] = await h.actions.remove([h.store.get(id)!], true);
  await h.settle();
  assert.equal(removed.status, 'Removed');
  assert.deepEqual(h.alivePids(), [], 'the removal killed both processes');
  assert.deepEqual(h.os.processes.get(next)!.signals.at(-1), 'SIGKILL');
  const failed = h.events.filter((e) => e.event === 'reload_failed').at(-1)!;
  assert.match(failed.msg ?? '', new RegExp(`^reload failed: cancelled by remove; .*pid ${next}`));
  assert.doesNotMatch(failed.msg ?? '', /keeps running/);
  await h.close();
});

test('a reload whose program is removed meanwhile answers ok false (cancelled), not ok', async () => {
  const h = await reloadHarness();
  const { id } = await healthyProgram(h);
  const answer = h.actions.reload([h.store.get(id)!]);
  await h.settle();
  assert.equal(h.observed.get(id).reload?.phase, 'successor');
  await h.actions.remove([h.store.get(id)!]);
  const [outcome] = await answer;
  assert.deepEqual([outcome.ok, outcome.status, outcome.error], [false, 'Removed', 'reload failed: cancelled by remove; the program was removed before its reload ended']);
  assert.deepEqual(h.alivePids(), []);
  await h.close();
});

test('a successor that ignores SIGTERM is killed after stopsecs; the status shows Stopping while only it remains', async () => {
  const h = await reloadHarness();
  const { id } = await healthyProgram(h, { stopsecs: 5 });
  await h.requestReload(id);
  const next = successorPid(h, id);
  h.os.ignoreTerm.add(next);
  await h.store.setIntents([id], (i) => ({ ...i, run: 'stopped', force: false }));
  await h.settle();
  assert.deepEqual(h.alivePids(), [next]);
  assert.equal(h.observed.get(id).status, 'Stopping');
  assert.equal(h.observed.get(id).pid, next);
  await h.advance(5000);
  assert.deepEqual(h.os.processes.get(next)!.signals, ['SIGTERM', 'SIGKILL']);
  assert.equal(h.observed.get(id).status, 'Stopped');
  await h.close();
});

test('the old process ending during a reload hands over to the successor at once (no restart, no gap)', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  await h.requestReload(id);
  const next = successorPid(h, id);
  h.os.exit(old, 1);
  await h.settle();
  assert.equal(h.observed.get(id).pid, next);
  assert.deepEqual(h.alivePids(), [next]);
  assert.equal(h.observed.get(id).last_reload?.result, 'reloaded');
  assert.ok(!h.types().includes('process_backoff'));
  await h.close();
});

test('daemon killed while the successor runs: the next daemon keeps the recorded (old) process and ends the successor', async () => {
  const h1 = await reloadHarness();
  const { id, old } = await healthyProgram(h1);
  await h1.requestReload(id);
  assert.equal(h1.alivePids().length, 2);
  await h1.crash();
  const h2 = await reloadHarness({ db: h1.db, os: h1.os });
  await h2.settle();
  assert.deepEqual(h2.alivePids(), [old], 'one process: not two, not zero');
  assert.equal(h2.observed.get(id).pid, old);
  // The history does not end at reload_started: the next daemon says how it ended.
  const failed = h2.events.filter((e) => e.event === 'reload_failed');
  assert.equal(failed.length, 1);
  assert.equal(failed[0].program_id, id);
  assert.equal(failed[0].program_name, 'web');
  assert.match(failed[0].msg, new RegExp(`^reload failed: svcd ended during the reload; the next svcd ended the new pid ${old + 1} \\(SIGKILL\\); pid ${old} keeps running$`));
  await h2.close();
});

test('daemon killed after the hand-over, the old process still stopping: the next daemon keeps the new one', async () => {
  const h1 = await reloadHarness();
  const { id, old } = await healthyProgram(h1);
  h1.os.ignoreTerm.add(old);
  await h1.requestReload(id);
  const next = successorPid(h1, id);
  h1.healthy.add(next);
  await h1.advance(1000);
  assert.equal(h1.observed.get(id).reload?.phase, 'retiring');
  assert.deepEqual(h1.alivePids().sort(), [old, next].sort());
  await h1.crash();
  const h2 = await reloadHarness({ db: h1.db, os: h1.os });
  await h2.settle();
  assert.deepEqual(h2.alivePids(), [next]);
  assert.equal(h2.observed.get(id).pid, next);
  const exits = h2.events.filter((e) => e.event === 'process_exit');
  assert.equal(exits.length, 1, 'the old process\'s end is in the history, as after a hand-over that completed');
  assert.match(exits[0].msg, new RegExp(`^pid ${old} stopped after a reload handed over to its new process: killed by the next svcd`));
  assert.ok(!h2.events.some((e) => e.event === 'reload_failed'), 'the reload had succeeded');
  await h2.close();
});

test('a reload asked for while one is under way starts its own new process once that one ends, and its answer is about it', async () => {
  const h = await reloadHarness();
  const { id, old } = await healthyProgram(h);
  const first = h.actions.reload([h.store.get(id)!]);
  await h.settle();
  const doomed = successorPid(h, id);
  const second = h.actions.reload([h.store.get(id)!]);
  await h.settle();
  assert.equal(successorPid(h, id), doomed, 'one second process at a time');
  await h.advance(3000); // the first successor is judged Unhealthy and stopped
  const [a] = await first;
  assert.equal(a.ok, false);
  assert.match(a.error ?? '', new RegExp(`pid ${doomed} is Unhealthy`));
  const next = successorPid(h, id);
  assert.notEqual(next, doomed, 'the second request started a process of its own');
  assert.deepEqual(h.alivePids().sort(), [old, next].sort());
  h.healthy.add(next);
  await h.advance(1000);
  const [b] = await second;
  assert.equal(b.ok, true, JSON.stringify(b));
  assert.match(b.note ?? '', new RegExp(`pid ${next} is Healthy and took over from pid ${old}`));
  assert.deepEqual(h.alivePids(), [next]);
  assert.deepEqual(h.types().filter((t) => t.startsWith('reload_')), ['reload_started', 'reload_failed', 'reload_started', 'reload_succeeded']);
  // Nothing is left pending: an unrelated pass (a start of the running program) starts no reload.
  await h.actions.start([h.store.get(id)!]);
  await h.advance(1000);
  assert.equal(h.types().filter((t) => t === 'reload_started').length, 2);
  await h.close();
});

test('a reload asked for in the pass that acts on a failing health check\'s restart: the restart comes first and answers it; no new process starts beside a process being stopped', () => {
  const intent = { run: 'running' as const, start_seq: 0, restart_seq: 0, force: false, reload_seq: 1 };
  const state = { ...initialProcState({ ...intent, reload_seq: 0 }), status: 'Running' as const, proc: { pid: 42, startTime: 1, startedAt: 0, stopsecs: 10, adopted: false } };
  const plan = planProcess({
    id: 'p', config: withDefaults({ name: 'p', command: 'x', health_check: { ...EXEC_CHECK } }), intent, run: 'running', state, now: 1_000_000, random: 0.5, blockedBy: null, stopBlockedBy: null, shutdown: false,
    restartRequest: { pid: 42, reason: 'failing health check', planned: false }, lastQuickRestartAt: -Infinity, reloadTimeoutMs: 8000, successor: null,
  });
  assert.deepEqual(plan.effects.map((e) => (e.kind === 'signal' ? `signal:${e.signal}` : e.kind)), ['signal:SIGTERM'], 'the old process is stopped for its restart, and no successor is spawned beside it');
  assert.equal(plan.next.stopping?.reason, 'health');
  assert.deepEqual([plan.next.appliedReload, plan.next.lastReload?.result, plan.next.lastReload?.msg], [1, 'restarted', 'restarted, with downtime: its failing health check restarted it first']);
});

test('a successor that takes over from a process being stopped does not inherit that stop', () => {
  const intent = { run: 'running' as const, start_seq: 0, restart_seq: 0, force: false, reload_seq: 1 };
  const successor = { pid: 43, startTime: 2, startedAt: 1000, stopsecs: 10, adopted: false };
  const state = {
    ...initialProcState(intent), status: 'Stopping' as const, appliedReload: 1,
    proc: { pid: 42, startTime: 1, startedAt: 0, stopsecs: 10, adopted: false }, exit: { code: null, signal: 15 },
    stopping: { reason: 'health' as const, deadline: 1_010_000, killed: false },
    overlap: { phase: 'successor' as const, proc: successor, exit: null, deadline: 1_008_000, timeoutMs: 8000, killed: false },
  };
  const plan = planProcess({
    id: 'p', config: withDefaults({ name: 'p', command: 'x', health_check: { ...EXEC_CHECK } }), intent, run: 'running', state, now: 1_000_000, random: 0.5, blockedBy: null, stopBlockedBy: null, shutdown: false,
    restartRequest: null, lastQuickRestartAt: -Infinity, reloadTimeoutMs: 8000, successor: null,
  });
  assert.equal(plan.next.proc?.pid, 43);
  assert.equal(plan.next.stopping, null, 'pid 43 is not being stopped: no SIGKILL for it at the old stop\'s deadline');
  assert.equal(plan.requeueAt, undefined);
});

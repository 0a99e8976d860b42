import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveCheck, planHealth, type HealthState } from '../../../controllers/health/plan.js';

const T0 = 1_700_000_000_000;
const alive = { pid: 42, startedAt: T0 };
const base = { id: 'p1', name: 'web', alive };

/** Runs probes with the given outcomes, each finishing at the time it is due. */
function run(checkFields: Record<string, unknown>, outcomes: boolean[], startAt = T0) {
  const check = effectiveCheck({ type: 'tcp', port: 80, ...checkFields });
  let state: HealthState | undefined;
  let now = startAt;
  const events: string[] = [];
  let restarts = 0;
  const verdicts: (boolean | null)[] = [];
  let plan = planHealth({ ...base, check, state, now });
  for (const ok of outcomes) {
    assert.ok(plan.effects.some((e) => e.kind === 'probe'), 'a probe is launched when due');
    state = { ...plan.next!, pending: { at: now, ok, latency_ms: 3, message: ok ? 'up' : 'refused' } };
    plan = planHealth({ ...base, check, state, now });
    for (const e of plan.effects) {
      if (e.kind === 'event') events.push(e.event.event);
      if (e.kind === 'restart') restarts++;
    }
    verdicts.push(plan.next!.view.healthy);
    if (plan.requeueAt !== undefined) {
      now = plan.requeueAt;
      plan = planHealth({ ...base, check, state: plan.next!, now });
    }
  }
  return { verdicts, events, restarts, last: plan.next! };
}

test('a disabled check, or no live process, plans nothing', () => {
  assert.equal(effectiveCheck({ type: 'tcp', port: 1, enabled: false }), null);
  assert.deepEqual(planHealth({ ...base, alive: null, check: effectiveCheck({ type: 'tcp', port: 1 }), state: undefined, now: T0 }), { next: null, effects: [] });
});

test('the first probe runs at once; passing makes the program Healthy (success_threshold 1)', () => {
  const r = run({}, [true]);
  assert.deepEqual(r.verdicts, [true]);
  assert.deepEqual(r.events, []);
});

test('failure_threshold failures in a row make it Unhealthy; a success in between resets the count', () => {
  assert.deepEqual(run({ failure_threshold: 3 }, [true, false, false, true, false, false, false]).verdicts, [true, true, true, true, true, true, false]);
});

test('turning Unhealthy records process_unhealthy once; recovery records process_recovered once', () => {
  const r = run({ failure_threshold: 1 }, [true, false, false, true, true, false]);
  assert.deepEqual(r.verdicts, [true, false, false, true, true, false]);
  assert.deepEqual(r.events, ['process_unhealthy', 'process_recovered', 'process_unhealthy']);
});

test('an interval under 0.1 s runs every 0.1 s (0.001 would fork an exec probe every millisecond)', () => {
  const check = effectiveCheck({ type: 'exec', command: 'true', interval_secs: 0.001 })!;
  assert.equal(check.interval_secs, 0.1);
  const probed = planHealth({ ...base, check, state: undefined, now: T0 });
  const judged = planHealth({ ...base, check, state: { ...probed.next!, pending: { at: T0, ok: true, latency_ms: 1, message: 'ok' } }, now: T0 });
  assert.equal(judged.requeueAt, T0 + 100);
  assert.equal(effectiveCheck({ type: 'tcp', port: 1, interval_secs: 0.5 })!.interval_secs, 0.5, 'larger intervals are kept');
});

test('success_threshold needs that many passes in a row', () => {
  assert.deepEqual(run({ success_threshold: 2 }, [true, false, true, true]).verdicts, [null, null, null, true]);
});

test('restart_on_failure asks for one restart and records health_restart', () => {
  const r = run({ failure_threshold: 2, restart_on_failure: true }, [true, false, false, false, false]);
  assert.equal(r.restarts, 1);
  assert.deepEqual(r.events, ['process_unhealthy', 'health_restart']);
});

test('without restart_on_failure an unhealthy program is only marked (and recorded)', () => {
  const r = run({ failure_threshold: 1 }, [false, false]);
  assert.equal(r.restarts, 0);
  assert.deepEqual(r.verdicts, [false, false]);
  assert.deepEqual(r.events, ['process_unhealthy']);
});

test('failures inside start_period do not count until the first success', () => {
  const r = run({ failure_threshold: 1, start_period_secs: 3, interval_secs: 10 }, [false, false, false, true, false]);
  // probes at T0, +1s, +2s fall inside the 3 s grace (probing every 1 s before a verdict)
  assert.deepEqual(r.verdicts, [null, null, null, true, false]);
});

test('inside start_period, a failure after a passed probe counts (success_threshold 2: not yet Healthy)', () => {
  // +0 s pass, +1 s fail: a probe passed, so the grace is over and failure_threshold 1 is reached.
  const r = run({ failure_threshold: 1, success_threshold: 2, start_period_secs: 30 }, [true, false]);
  assert.deepEqual(r.verdicts, [null, false]);
});

test('inside start_period, a failure after the first pass breaks the run of passes success_threshold needs', () => {
  const r = run({ failure_threshold: 5, success_threshold: 2, start_period_secs: 30 }, [false, true, false, true, true]);
  // fail (grace), pass, fail (counted: 1 of 5, the run of passes ends), pass, pass: Healthy only then
  assert.deepEqual(r.verdicts, [null, null, null, null, true]);
});

test('before the first verdict probes run every second; after it, every interval', () => {
  const check = effectiveCheck({ type: 'tcp', port: 80, interval_secs: 30 });
  const start = planHealth({ ...base, check, state: undefined, now: T0 });
  const first = planHealth({ ...base, check, state: { ...start.next!, pending: { at: T0, ok: false, latency_ms: 1, message: 'x' } }, now: T0 });
  assert.equal(first.requeueAt, T0 + 1000);
  const healthy = planHealth({ ...base, check, state: { ...first.next!, probing: true, pending: { at: T0, ok: true, latency_ms: 1, message: 'ok' } }, now: T0 + 1000 });
  assert.equal(healthy.requeueAt, T0 + 1000 + 30_000);
});

test('a new process (another pid) starts a fresh verdict', () => {
  const r = run({}, [true]);
  const next = planHealth({ ...base, alive: { pid: 43, startedAt: T0 + 5000 }, check: effectiveCheck({ type: 'tcp', port: 80 }), state: r.last, now: T0 + 5000 });
  assert.equal(next.next!.view.healthy, null);
  assert.equal(next.next!.pid, 43);
});

test('recent results keep the last 10, newest last', () => {
  const r = run({ failure_threshold: 100 }, Array.from({ length: 12 }, (_, i) => i % 2 === 0));
  assert.equal(r.last.view.recent.length, 10);
  assert.equal(r.last.view.last, r.last.view.recent.at(-1));
});

test('a changed check probes at once, drops a result of the old one and counts its own results from zero', () => {
  const r = run({ interval_secs: 3600, failure_threshold: 3 }, [true, false, false]);
  assert.equal(r.last.view.healthy, true);
  assert.equal(r.last.view.failures, 2);
  const now = T0 + 5000; // long before the old check's next probe, an hour away
  const changed = effectiveCheck({ type: 'tcp', port: 81, interval_secs: 3600, failure_threshold: 3 });
  const stale = { at: now, ok: false, latency_ms: 1, message: 'port 80 refused' };
  const next = planHealth({ ...base, check: changed, state: { ...r.last, probing: true, pending: stale }, now });
  assert.deepEqual(next.effects, [{ kind: 'probe' }], 'the new check probes now; the old result is not judged');
  assert.deepEqual({ healthy: next.next!.view.healthy, failures: next.next!.view.failures, last: next.next!.view.last?.message }, { healthy: true, failures: 0, last: r.last.view.last?.message });
  // The same settings written in another order are no change.
  const reordered = effectiveCheck({ failure_threshold: 3, interval_secs: 3600, port: 80, type: 'tcp' });
  assert.deepEqual(planHealth({ ...base, check: reordered, state: r.last, now }).effects, []);
});

test('restart_on_failure turned on while Unhealthy restarts at the changed check\'s failure_threshold failures', () => {
  const r = run({ failure_threshold: 2 }, [false, false, false]);
  assert.equal(r.last.view.healthy, false);
  assert.equal(r.restarts, 0);
  const check = effectiveCheck({ type: 'tcp', port: 80, failure_threshold: 2, restart_on_failure: true });
  let now = T0 + 60_000;
  let plan = planHealth({ ...base, check, state: r.last, now });
  const effects: string[] = [];
  for (let i = 0; i < 2; i++) {
    assert.ok(plan.effects.some((e) => e.kind === 'probe'));
    plan = planHealth({ ...base, check, state: { ...plan.next!, pending: { at: now, ok: false, latency_ms: 1, message: 'refused' } }, now });
    effects.push(...plan.effects.map((e) => (e.kind === 'event' ? e.event.event : e.kind)));
    now = plan.requeueAt!;
    plan = planHealth({ ...base, check, state: plan.next!, now });
  }
  assert.deepEqual(effects, ['health_restart', 'restart'], 'one restart, and no second process_unhealthy');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXEC_CHECK, reloadHarness } from '../../../helpers/reload-harness.js';

void test('an exec probe runs as the program runs: its user, group and groups (root ran it)', async () => {
  const h = await reloadHarness();
  h.os.rootUser = true;
  try {
    await h.add({ name: 'app', user: 'nobody', health_check: EXEC_CHECK });
    const spec = h.probeSpecs[0];
    assert.ok(spec, 'probed');
    assert.deepEqual({ uid: spec.uid, gid: spec.gid, groups: spec.groups }, { uid: 65534, gid: 65534, groups: [65534] });
    assert.equal(spec.env.USER, 'nobody');
  } finally {
    await h.close();
  }
});

void test('a changed health_check applies at once: neither the old interval nor a probe in flight of the old check holds it up', async () => {
  const h = await reloadHarness();
  try {
    const id = await h.add({ name: 'app', health_check: { ...EXEC_CHECK, interval_secs: 3600 } });
    const pid = h.pidOf(id);
    h.healthy.add(pid);
    await h.advance(1000);
    assert.equal(h.observed.get(id).status, 'Healthy');
    // The next probe is an hour away; the operator shortens the interval and fixes the command.
    const before = h.probed.length;
    await h.store.update(id, (c) => ({ ...c, health_check: { ...EXEC_CHECK, interval_secs: 2 } }));
    await h.settle();
    assert.equal(h.probed.length, before + 1, 'the new check probed without waiting for the old interval');
    // A probe that hangs (until its timeout, in real life) does not hold up a newer check.
    h.hanging.add(pid);
    await h.advance(2000);
    const stuck = h.probed.length;
    h.hanging.delete(pid);
    await h.store.update(id, (c) => ({ ...c, health_check: { ...EXEC_CHECK, command: 'ready-check --deep', interval_secs: 2 } }));
    await h.settle();
    assert.equal(h.probed.length, stuck + 1, 'the changed check probed beside the stuck probe of the old one');
    assert.equal(h.probeSpecs.at(-1)?.args.join(' '), '--deep');
  } finally {
    await h.close();
  }
});

void test('an exec check whose command line has no command, or an open quote, fails naming health_check.command', async () => {
  const h = await reloadHarness();
  try {
    const blank = await h.add({ name: 'blank', health_check: { ...EXEC_CHECK, command: '   ' } });
    const quote = await h.add({ name: 'quote', health_check: { ...EXEC_CHECK, command: 'check "--deep' } });
    await h.settle();
    assert.equal(h.observed.get(blank).health?.last?.message, 'health_check.command: is empty');
    assert.equal(h.observed.get(quote).health?.last?.message, 'health_check.command: unterminated double quote');
    assert.deepEqual(h.probeSpecs, [], 'nothing was started');
  } finally {
    await h.close();
  }
});

void test('a probe in flight is ended when its process stops, its check changes or its program is removed (it ran on to its timeout)', async () => {
  const h = await reloadHarness();
  try {
    const id = await h.add({ name: 'app', health_check: { ...EXEC_CHECK, timeout_secs: 3600 } });
    const first = h.pidOf(id);
    h.hanging.add(first);
    await h.advance(1000);
    assert.deepEqual(h.abandoned, []);
    await h.store.update(id, (c) => ({ ...c, health_check: { ...EXEC_CHECK, timeout_secs: 3600, command: 'ready-check --deep' } }));
    await h.settle();
    assert.deepEqual(h.abandoned, [first], 'the old check\'s probe ended');
    await h.actions.stop([h.store.get(id)!], false);
    await h.settle();
    assert.deepEqual(h.abandoned, [first, first], 'the stopped process\'s probe ended');
    await h.actions.start([h.store.get(id)!]);
    await h.settle();
    const second = h.pidOf(id);
    h.hanging.add(second);
    await h.advance(1000);
    const probes = h.probed.filter((p) => p === second).length;
    assert.ok(probes > 0);
    await h.store.remove([id]);
    await h.settle();
    assert.deepEqual(h.abandoned, [first, first, second], 'the removed program\'s probe ended');
  } finally {
    await h.close();
  }
});

void test('a re-adopted process keeps its verdict across a crash of svcd: Healthy at once, Unhealthy not recorded again, then recovered', async () => {
  const h1 = await reloadHarness();
  const ok = await h1.add({ name: 'ok', health_check: EXEC_CHECK });
  const sick = await h1.add({ name: 'sick', health_check: EXEC_CHECK });
  h1.healthy.add(h1.pidOf(ok));
  await h1.advance(3000);
  assert.equal(h1.observed.get(ok).status, 'Healthy');
  assert.equal(h1.observed.get(sick).status, 'Unhealthy');
  assert.equal(h1.types().filter((t) => t === 'process_unhealthy').length, 1);
  const [okPid, sickPid] = [h1.pidOf(ok), h1.pidOf(sick)];
  await h1.crash();

  const h = await reloadHarness({ db: h1.db, os: h1.os });
  try {
    await h.settle();
    assert.equal(h.pidOf(ok), okPid, 're-adopted');
    assert.equal(h.observed.get(ok).status, 'Healthy', 'Healthy before any probe of the new svcd has answered');
    assert.equal(h.observed.get(sick).status, 'Unhealthy');
    h.healthy.add(okPid);
    await h.advance(3000);
    assert.equal(h.observed.get(sick).status, 'Unhealthy');
    assert.deepEqual(h.types().filter((t) => t === 'process_unhealthy'), [], 'still the same turn: not recorded (nor notified) twice');
    h.healthy.add(sickPid);
    await h.advance(1000);
    assert.equal(h.observed.get(sick).status, 'Healthy');
    assert.deepEqual(h.types().filter((t) => t === 'process_recovered'), ['process_recovered']);
  } finally {
    await h.close();
  }
});

void test('a verdict is not carried to another process: one that ended while svcd was down starts unjudged', async () => {
  const h1 = await reloadHarness();
  const id = await h1.add({ name: 'app', health_check: EXEC_CHECK });
  h1.healthy.add(h1.pidOf(id));
  await h1.advance(1000);
  assert.equal(h1.observed.get(id).status, 'Healthy');
  const old = h1.pidOf(id);
  await h1.crash();
  h1.os.exit(old, 1);

  const h = await reloadHarness({ db: h1.db, os: h1.os });
  try {
    await h.settle();
    assert.notEqual(h.pidOf(id), old, 'a new process');
    assert.equal(h.observed.get(id).health?.healthy ?? null, null, 'no verdict yet for the new process');
    assert.notEqual(h.observed.get(id).status, 'Healthy');
  } finally {
    await h.close();
  }
});

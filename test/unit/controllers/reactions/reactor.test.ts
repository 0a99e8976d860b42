import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOs } from '../../../../controllers/os/fake.js';
import { Reactor } from '../../../../controllers/reactions/reactor.js';
import type { Reaction } from '../../../../controllers/reactions/types.js';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { EventBus } from '../../../../state/events/bus.js';
import type { EventRecord } from '../../../../state/events/types.js';

const reaction = (over: Partial<Reaction> = {}): Reaction => ({
  name: 'on-fatal', events: ['process_fatal'], programs: null, command: ['/opt/on-fatal.sh', '--page'], shell: false, cwd: '/srv',
  timeoutSecs: 7, maxConcurrent: 1, cooldownSecs: 0, env: { TEAM: 'ops' }, enabled: true, ...over,
});

function harness() {
  const root = mkdtempSync(join(tmpdir(), 'svc-reactor-'));
  const clock = new FakeClock();
  const os = new FakeOs();
  const bus = new EventBus(clock, 1);
  const recorded: EventRecord[] = [];
  bus.subscribe((r) => recorded.push(r));
  const stdin: string[] = [];
  const run = os.runToCompletion.bind(os);
  const started: (() => void)[] = [];
  // What the script would read on fd 0, taken while the file exists.
  os.runToCompletion = async (spec, timeoutMs, abort) => {
    if (spec.stdinPath) stdin.push(readFileSync(spec.stdinPath, 'utf8'));
    const result = run(spec, timeoutMs, abort);
    for (const f of started.splice(0)) f();
    return result;
  };
  /** Resolves once `n` runs have reached the OS port. */
  const reached = async (n: number) => {
    while (os.hookRuns.length < n) await new Promise<void>((r) => started.push(r));
  };
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined };
  const reactor = new Reactor({ os, events: bus, clock, root, logDir: join(root, 'logs'), baseEnv: { PATH: '/usr/bin', SVC_ROOT: '/elsewhere' }, file: join(root, 'conf', 'reactions.toml'), log });
  bus.subscribe(reactor.onEvent);
  const settle = () => reactor.idle();
  return { root, clock, os, bus, recorded, stdin, reactor, settle, reached, done: () => rmSync(root, { recursive: true, force: true }) };
}

test('process_fatal runs the command with the event in env and on stdin; started and finished are recorded', async () => {
  const h = harness();
  h.reactor.load([reaction()]);
  h.bus.emit({ event: 'process_fatal', program_id: 'p1', program_name: 'web', retry_count: 3, exit_code: 2, msg: 'gave up' });
  await h.settle();
  assert.equal(h.os.hookRuns.length, 1);
  const spec = h.os.hookRuns[0];
  assert.equal(spec.file, '/opt/on-fatal.sh');
  assert.deepEqual(spec.args, ['--page']);
  assert.equal(spec.cwd, '/srv');
  assert.equal(spec.stdoutPath, join(h.root, 'logs', 'reactions', 'on-fatal.log'));
  assert.equal(spec.stderrPath, spec.stdoutPath);
  const fatal = h.recorded[0];
  assert.deepEqual(
    { ...spec.env },
    {
      PATH: '/usr/bin', TEAM: 'ops', SVC_ROOT: h.root, SVC_REACTION: 'on-fatal', SVC_TEST: '', SVC_EVENT: 'process_fatal', SVC_EVENT_ID: fatal.id,
      SVC_EVENT_TIME: new Date(fatal.ts_ms).toISOString(), SVC_EVENT_TS: String(fatal.ts), SVC_EVENT_TS_MS: String(fatal.ts_ms), SVC_PROGRAM_ID: 'p1', SVC_PROGRAM_NAME: 'web',
      SVC_EXIT_CODE: '2', SVC_SIGNAL: '', SVC_RETRY_COUNT: '3', SVC_DURATION_SECS: '', SVC_MSG: 'gave up',
    },
  );
  assert.deepEqual(JSON.parse(h.stdin[0]), fatal);
  assert.deepEqual(h.recorded.map((r) => r.event), ['process_fatal', 'reaction_started', 'reaction_finished']);
  assert.ok(h.recorded.slice(1).every((r) => r.program_id === 'p1' && r.program_name === 'web'));
  const view = h.reactor.status().reactions[0];
  assert.equal(view.last_run?.outcome, 'ok');
  assert.deepEqual(view.runs, { ok: 1, failed: 0, timeout: 0, spawn_failed: 0 });
  h.done();
});

test('a reaction on every event does not trigger itself: one event, one run', async () => {
  const h = harness();
  h.reactor.load([reaction({ events: ['*'], maxConcurrent: 64 })]);
  h.bus.emit({ event: 'process_exit', program_id: 'p1', program_name: 'web', msg: 'crashed' });
  await h.settle();
  assert.equal(h.os.hookRuns.length, 1);
  assert.deepEqual(h.recorded.map((r) => r.event), ['process_exit', 'reaction_started', 'reaction_finished']);
  h.done();
});

test('a failing exit is reaction_failed with its exit code; a timeout says so', async () => {
  const h = harness();
  h.reactor.load([reaction({ command: ['/opt/fails'] })]);
  h.os.hookExitCodes.set('/opt/fails', 7);
  h.bus.emit({ event: 'process_fatal', program_id: 'p1', program_name: 'web', msg: 'x' });
  await h.settle();
  const failed = h.recorded.at(-1)!;
  assert.equal(failed.event, 'reaction_failed');
  assert.equal(failed.exit_code, 7);
  assert.match(failed.msg, /^reaction 'on-fatal' failed: exit code 7 after 0 s$/);
  assert.deepEqual(h.reactor.stats()[0]?.runs, { ok: 0, failed: 1, timeout: 0, spawn_failed: 0 });
  h.done();
});

test('concurrency and cooldown skip matches and count them; a reload keeps run state', async () => {
  const h = harness();
  h.reactor.load([reaction({ cooldownSecs: 10 })]);
  h.os.holdHooks = true;
  h.bus.emit({ event: 'process_fatal', program_id: 'a', program_name: 'a', msg: '' });
  h.bus.emit({ event: 'process_fatal', program_id: 'b', program_name: 'b', msg: '' });
  await h.reached(1);
  assert.equal(h.os.hookRuns.length, 1);
  assert.equal(h.reactor.status().reactions[0]?.running, 1);
  h.reactor.load([reaction({ cooldownSecs: 10 })]); // a reload mid-run
  h.os.releaseHooks();
  await h.settle();
  h.bus.emit({ event: 'process_fatal', program_id: 'c', program_name: 'c', msg: '' });
  h.clock.advance(10_000);
  h.bus.emit({ event: 'process_fatal', program_id: 'd', program_name: 'd', msg: '' });
  await h.settle();
  assert.equal(h.os.hookRuns.length, 2);
  assert.deepEqual(h.reactor.stats()[0]?.skipped, { disabled: 0, cooldown: 1, concurrency: 1 });
  h.done();
});

test('test runs: a synthetic event from the reaction keys, marked SVC_TEST; unknown names are 404, busy ones 409', async () => {
  const h = harness();
  h.reactor.load([reaction({ programs: ['web-*', 'db'], enabled: false })]);
  const run = await h.reactor.test('on-fatal', {});
  assert.equal(run.outcome, 'ok');
  assert.equal(run.test, true);
  const env = h.os.hookRuns[0].env;
  assert.equal(env.SVC_TEST, '1');
  assert.equal(env.SVC_EVENT, 'process_fatal');
  assert.equal(env.SVC_PROGRAM_NAME, 'db');
  assert.equal(JSON.parse(h.stdin[0]).id, run.event_id);
  await assert.rejects(h.reactor.test('nope', {}), { code: 'SVC_NOT_FOUND' });
  await assert.rejects(h.reactor.test('on-fatal', { event: 'reaction_failed' }), { code: 'SVC_INVALID' });
  h.os.holdHooks = true;
  const first = h.reactor.test('on-fatal', {});
  await h.reached(2);
  await assert.rejects(h.reactor.test('on-fatal', {}), { code: 'SVC_CONFLICT' });
  h.os.releaseHooks();
  await first;
  h.done();
});

test('a failed reload keeps the reactions in force and reports the errors', () => {
  const h = harness();
  h.reactor.load([reaction()]);
  h.reactor.fail(['f:3: reaction[0].events: bad']);
  const s = h.reactor.status();
  assert.deepEqual(s.load_error, { at: h.clock.now(), errors: ['f:3: reaction[0].events: bad'] });
  assert.deepEqual(s.reactions.map((r) => r.name), ['on-fatal']);
  assert.ok(h.reactor.loadFailed());
  h.reactor.load([]);
  assert.equal(h.reactor.status().load_error, null);
  h.done();
});

test('at shutdown a run still going after the wait is killed (its group), not left to run with no timeout; its failure is recorded', async () => {
  const h = harness();
  h.reactor.load([reaction()]);
  h.os.holdHooks = true;
  h.bus.emit({ event: 'process_fatal', program_id: 'a', program_name: 'a', msg: '' });
  await h.reached(1);
  const closing = h.reactor.close(5000);
  await Promise.resolve();
  h.clock.advance(4999);
  assert.equal(h.reactor.status().reactions[0]?.running, 1, 'killed before its 5 s');
  h.clock.advance(1);
  await closing;
  assert.equal(h.reactor.status().reactions[0]?.running, 0);
  const failed = h.recorded.find((r) => r.event === 'reaction_failed');
  assert.match(failed?.msg ?? '', /^reaction 'on-fatal' killed after \d+(\.\d+)? s: svcd stopped while it ran \(process group SIGKILLed\)$/);
  h.done();
});

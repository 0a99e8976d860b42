// The isolation controller with a fake OS and a fake clock, writing through the real
// isolation.so into a fake cgroup v2 tree in a temporary directory.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IsolationController, type IsolationHost } from '../../../../controllers/isolation/controller.js';
import { withSpawnDecorators } from '../../../../controllers/os/decorated.js';
import { FakeOs } from '../../../../controllers/os/fake.js';
import type { ExitInfo, OsPort, SpawnSpec } from '../../../../controllers/os/port.js';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import type { EventInput } from '../../../../state/events/types.js';
import { ObservedRegistry } from '../../../../state/observed.js';
import type { ProgramRecord } from '../../../../state/program.js';
import { fakeCgroupTree } from '../../../helpers/cgroup-tree.js';
import { isolationNative } from '../../../helpers/isolation-fs.js';

const ROOT = '/srv/svc';
const ID = '11111111-2222-4333-8444-555555555555';
let tree: string;
let parent: string;
let records: Map<string, ProgramRecord>;
let events: EventInput[];
let woken: string[];
let warnings: string[];
let clock: FakeClock;
let observed: ObservedRegistry;
let fake: FakeOs;

function record(limits: ProgramRecord['config']['resource_limits'], extra: Partial<ProgramRecord['config']> = {}): void {
  records.set(ID, { id: ID, config: { name: 'web', command: 'app', ...(limits ? { resource_limits: limits } : {}), ...extra }, intent: { run: 'running', start_seq: 0, restart_seq: 0, force: false }, revision: 1, created_at: 0, updated_at: 0 });
  observed.update(ID, {});
}

function controller(host?: IsolationHost, sessionOf?: (pid: number) => number[]): { ctl: IsolationController; os: OsPort } {
  const ctl = new IsolationController({
    store: { get: (id) => records.get(id), list: () => [...records.values()] },
    observed,
    events: { emit: (e) => events.push(e) },
    clock,
    host: host ?? { fs: isolationNative(), parent },
    root: ROOT,
    wake: (id) => woken.push(id),
    warn: (msg) => warnings.push(msg),
    sessionOf,
  });
  return { ctl, os: withSpawnDecorators(fake, [ctl.hooks]) };
}

const spec = (env: Record<string, string> = {}): SpawnSpec => ({ file: 'app', args: [], cwd: '/', env: { SVC_PROGRAM_ID: ID, SVC_ROOT: ROOT, ...env }, stdoutPath: '/l', stderrPath: '/l', tag: ID });
const file = (...p: string[]) => readFileSync(join(parent, ID, ...p), 'utf8');

beforeEach(() => {
  tree = fakeCgroupTree();
  parent = join(tree, 'svc');
  mkdirSync(parent);
  records = new Map();
  events = [];
  woken = [];
  warnings = [];
  clock = new FakeClock();
  observed = new ObservedRegistry();
  fake = new FakeOs();
});
afterEach(() => rmSync(join(tree, '..'), { recursive: true, force: true }));

test('a program with limits starts inside svc/<id>, whose cpu.max and memory.max are written before it runs', async () => {
  record({ memory_limit: 64_000_000, cpu_quota: 50 });
  const { ctl, os } = controller();
  const handle = await os.spawn(spec(), () => undefined);
  assert.equal(fake.processes.get(handle.pid)!.spec.cgroup, join(parent, ID));
  assert.equal(file('cpu.max'), '50000 100000');
  assert.equal(file('memory.max'), '64000000');
  assert.deepEqual(woken, [ID]);
  assert.deepEqual(await ctl.reconcile(ID), { requeueAfterMs: 1000 }, 'polled while it runs');
  assert.deepEqual(observed.get(ID).isolation, { enforced: true, reason: null, cgroup: join(parent, ID), oom_kills: 0 });
  assert.equal(ctl.enforcedCount(), 1);
});

test('programs without limits, hooks and probes are started as they are', async () => {
  const { os } = controller();
  record(undefined);
  assert.equal(fake.processes.get((await os.spawn(spec(), () => undefined)).pid)!.spec.cgroup, undefined);
  record({ memory_limit: 10_000_000 });
  await os.runToCompletion(spec({ SVC_HOOK: 'pre_start' }), 1000);
  assert.equal(fake.hookRuns[0].cgroup, undefined);
  assert.equal(existsSync(join(parent, ID)), false);
  const cron = await os.spawn(spec({ SVC_CRON_SLOT: '2026-01-01T00:00:00Z' }), () => undefined);
  assert.equal(fake.processes.get(cron.pid)!.spec.cgroup, join(parent, ID), 'a cron run is limited too');
});

test('a limit change is written live to the running cgroup; removing a limit lifts it', async () => {
  record({ memory_limit: 64_000_000, cpu_quota: 50 });
  const { ctl, os } = controller();
  await os.spawn(spec(), () => undefined);
  record({ memory_limit: 32_000_000, cpu_quota: 50 });
  await ctl.reconcile(ID);
  assert.equal(file('memory.max'), '32000000');
  record({ cpu_quota: 25 });
  await ctl.reconcile(ID);
  assert.equal(file('memory.max'), 'max');
  assert.equal(file('cpu.max'), '25000 100000');
  record(undefined);
  await ctl.reconcile(ID);
  assert.equal(file('cpu.max'), 'max 100000');
  assert.equal(observed.get(ID).isolation, undefined, 'no limits: no verdict to show');
});

test('memory.events: pressure at most once a minute, each OOM kill recorded, the OOM exit says so', async () => {
  record({ memory_limit: 64_000_000 });
  const { ctl, os } = controller();
  const exits: ExitInfo[] = [];
  const handle = await os.spawn(spec(), (e) => exits.push(e));
  writeFileSync(join(parent, ID, 'memory.events'), 'high 0\nmax 3\noom 0\noom_kill 0\n');
  await ctl.reconcile(ID);
  writeFileSync(join(parent, ID, 'memory.events'), 'high 0\nmax 7\noom 0\noom_kill 0\n');
  clock.advance(1000);
  await ctl.reconcile(ID);
  assert.deepEqual(events.map((e) => [e.event, e.msg]), [['memory_pressure', 'memory pressure: 3 time(s) at memory.max (memory_limit 64000000 bytes)']]);
  clock.advance(60_000);
  await ctl.reconcile(ID);
  assert.equal(events[1].msg, 'memory pressure: 4 time(s) at memory.max (memory_limit 64000000 bytes)', 'the counts held back');
  writeFileSync(join(parent, ID, 'memory.events'), 'high 0\nmax 7\noom 1\noom_kill 1\n');
  fake.exit(handle.pid, null, 9);
  assert.equal(exits[0].note, 'OOM-killed: the cgroup reached its memory_limit of 64000000 bytes');
  await ctl.reconcile(ID);
  const oom = events.find((e) => e.event === 'memory_oom_kill')!;
  assert.equal(oom.signal, 9);
  assert.equal(observed.get(ID).isolation?.oom_kills, 1);
  assert.equal(existsSync(join(parent, ID)), false, 'removed after the last process left');
});

test('a SIGKILL without a new oom_kill is a plain kill', async () => {
  record({ memory_limit: 64_000_000 });
  const { os } = controller();
  const exits: ExitInfo[] = [];
  const handle = await os.spawn(spec(), (e) => exits.push(e));
  fake.exit(handle.pid, null, 9);
  assert.equal(exits[0].note, undefined);
});

test('an OOM kill of a child that the program outlived does not make a later SIGKILL an OOM kill', async () => {
  record({ memory_limit: 64_000_000 });
  const { ctl, os } = controller();
  const exits: ExitInfo[] = [];
  const handle = await os.spawn(spec(), (e) => exits.push(e));
  await ctl.reconcile(ID);
  writeFileSync(join(parent, ID, 'memory.events'), 'high 0\nmax 2\noom 1\noom_kill 1\n'); // a child is killed
  clock.advance(1000);
  await ctl.reconcile(ID);
  assert.deepEqual(events.map((e) => e.event), ['memory_pressure', 'memory_oom_kill']);
  clock.advance(1000);
  await ctl.reconcile(ID); // the main process is still there a reading later
  fake.exit(handle.pid, null, 9); // later: svc stop's SIGKILL after stopsecs
  assert.equal(exits[0].note, undefined);
});

test('an OOM kill seen by a reading just before the exit is still named on it', async () => {
  record({ memory_limit: 64_000_000 });
  const { ctl, os } = controller();
  const exits: ExitInfo[] = [];
  const handle = await os.spawn(spec(), (e) => exits.push(e));
  await ctl.reconcile(ID);
  writeFileSync(join(parent, ID, 'memory.events'), 'high 0\nmax 2\noom 1\noom_kill 1\n');
  clock.advance(1000);
  await ctl.reconcile(ID);
  clock.advance(10);
  await ctl.reconcile(ID); // woken early (not a poll later)
  fake.exit(handle.pid, null, 9);
  assert.match(exits[0].note ?? '', /^OOM-killed/);
});

test('the cgroup stays while a process remains or a spawn is under way, and is removed after', async () => {
  record({ memory_limit: 64_000_000 });
  const { ctl, os } = controller();
  const a = await os.spawn(spec({ SVC_CRON_SLOT: 'a' }), () => undefined);
  const b = await os.spawn(spec({ SVC_CRON_SLOT: 'b' }), () => undefined);
  fake.exit(a.pid, 0);
  assert.deepEqual(await ctl.reconcile(ID), { requeueAfterMs: 1000 });
  assert.ok(existsSync(join(parent, ID)));
  fake.exit(b.pid, 0);
  assert.equal(await ctl.reconcile(ID), undefined);
  assert.equal(existsSync(join(parent, ID)), false);
  assert.deepEqual(observed.get(ID).isolation, { enforced: false, reason: null, cgroup: null, oom_kills: 0 });
});

test('a cgroup that cannot be prepared refuses the spawn with the reason', async () => {
  record({ memory_limit: 64_000_000 });
  const { os } = controller({ fs: isolationNative(), parent: join(tree, 'missing', 'svc') });
  await assert.rejects(os.spawn(spec(), () => undefined), /resource_limits: cannot prepare cgroup .*missing\/svc\/.*: mkdir .*: ENOENT/);
});

test('without an enforceable host: nothing is written, the verdict says why', async () => {
  record({ memory_limit: 64_000_000 });
  const { ctl, os } = controller({ reason: 'isolation plugin not loaded: the license does not grant isolation' });
  const handle = await os.spawn(spec(), () => undefined);
  assert.equal(fake.processes.get(handle.pid)!.spec.cgroup, undefined);
  await ctl.reconcile(ID);
  assert.deepEqual(observed.get(ID).isolation, { enforced: false, reason: 'isolation plugin not loaded: the license does not grant isolation', cgroup: null, oom_kills: 0 });
  assert.equal(ctl.enforcedCount(), 0);
});

test('after a daemon restart the cgroups of re-adopted programs are taken over: limits rewritten, removed once the pid is gone', async () => {
  record({ memory_limit: 64_000_000 });
  mkdirSync(join(parent, ID));
  mkdirSync(join(parent, 'not-a-program-of-ours'));
  observed.update(ID, { pid: 4242 });
  const { ctl } = controller();
  await ctl.prepare();
  assert.deepEqual(await ctl.reconcile(ID), { requeueAfterMs: 1000 });
  assert.equal(file('memory.max'), '64000000');
  assert.deepEqual([...ctl.watches.observed({ id: ID, prev: observed.get(ID), next: { ...observed.get(ID), pid: null } })], [ID]);
  observed.update(ID, { pid: null });
  await ctl.reconcile(ID);
  assert.equal(existsSync(join(parent, ID)), false);
  assert.ok(existsSync(join(parent, 'not-a-program-of-ours')), 'left alone');
});

test('at daemon shutdown the cgroups of ended programs are removed; live ones stay', async () => {
  record({ memory_limit: 64_000_000 });
  const { ctl, os } = controller();
  const handle = await os.spawn(spec(), () => undefined);
  await ctl.close();
  assert.ok(existsSync(join(parent, ID)), 'still running: kept (it survives a daemon that is only restarting)');
  fake.exit(handle.pid, 0);
  await ctl.close();
  assert.equal(existsSync(join(parent, ID)), false);
});

test('limits added to a program that runs without them: its cgroup is made and its session moved in', async () => {
  record(undefined);
  const { ctl, os } = controller(undefined, (pid) => [pid, pid + 1]);
  const handle = await os.spawn(spec(), () => undefined);
  assert.equal(fake.processes.get(handle.pid)!.spec.cgroup, undefined);
  observed.update(ID, { pid: handle.pid });
  record({ memory_limit: 50_000_000 });
  observed.update(ID, { pid: handle.pid });
  assert.deepEqual(await ctl.reconcile(ID), { requeueAfterMs: 1000 });
  assert.equal(file('memory.max'), '50000000');
  assert.equal(file('cgroup.procs'), String(handle.pid + 1), 'each member written (the plain file keeps the last)');
  assert.equal(observed.get(ID).isolation?.enforced, true);
  observed.update(ID, { pid: null });
  await ctl.reconcile(ID);
  assert.equal(existsSync(join(parent, ID)), false, 'removed when that process is gone');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeOs } from '../../../controllers/os/fake.js';
import { UsageSampler, USAGE_FRESH_MS } from '../../../observers/usage-sampler.js';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { ObservedRegistry, USAGE_DEMAND_WINDOW_MS } from '../../../state/observed.js';

const flush = () => new Promise((r) => setImmediate(r));

async function setup() {
  const os = new FakeOs();
  const clock = new FakeClock();
  const observed = new ObservedRegistry();
  const counter = { passes: 0 };
  const sampleUsage = os.sampleUsage.bind(os);
  os.sampleUsage = async (pids) => {
    counter.passes++;
    return sampleUsage(pids);
  };
  const { pid } = await os.spawn({ file: 'x', args: [], cwd: '/', env: {}, stdoutPath: '/o', stderrPath: '/e' }, () => undefined);
  observed.update('p', { pid, status: 'Running' });
  const sampler = new UsageSampler({ os, clock, observed, livePids: () => new Map([['p', pid]]), intervalMs: 5000 });
  return { clock, observed, counter, sampler };
}

test('usage: nothing samples while nobody reads (no timer at all)', async () => {
  const { clock, observed, counter, sampler } = await setup();
  sampler.start();
  clock.advance(10 * 60_000);
  await flush();
  assert.equal(counter.passes, 0);
  assert.equal(clock.nextTimerAt(), null, 'no timer armed');
  assert.equal(observed.get('p').mem_usage, 0);
  sampler.stop();
});

test('usage: a read samples before it answers, and a burst of reads costs one pass', async () => {
  const { clock, observed, counter, sampler } = await setup();
  sampler.start();
  await observed.readUsage(clock.now());
  assert.equal(counter.passes, 1);
  assert.equal(observed.get('p').mem_usage, 1024 * 1024, 'fresh figures in the answer');
  await Promise.all([observed.readUsage(clock.now()), observed.readUsage(clock.now())]);
  clock.advance(USAGE_FRESH_MS - 1);
  await observed.readUsage(clock.now());
  assert.equal(counter.passes, 1, 'younger than USAGE_FRESH_MS: answered as it is');
  clock.advance(1);
  await observed.readUsage(clock.now());
  assert.equal(counter.passes, 2);
  sampler.stop();
});

test('usage: sampled every interval while read, then stops until the next read', async () => {
  const { clock, observed, counter, sampler } = await setup();
  sampler.start();
  observed.noteUsageRead(clock.now()); // a watch stream's read
  clock.advance(0);
  await flush();
  assert.equal(counter.passes, 1, 'a read after a quiet spell samples at once');
  clock.advance(5000);
  await flush();
  assert.equal(counter.passes, 2, 'watched: every interval');
  // No more reads: passes go on until the demand window has passed, then nothing.
  for (let t = 0; t < USAGE_DEMAND_WINDOW_MS + 30_000; t += 5000) {
    clock.advance(5000);
    await flush();
  }
  const stoppedAt: number = Number(counter.passes);
  assert.ok(stoppedAt <= 2 + USAGE_DEMAND_WINDOW_MS / 5000, `${stoppedAt} passes`);
  assert.equal(clock.nextTimerAt(), null, 'no timer once nobody reads');
  observed.noteUsageRead(clock.now());
  clock.advance(0);
  await flush();
  assert.equal(counter.passes, stoppedAt + 1, 'reads resume: sampled at once');
  sampler.stop();
  clock.advance(60_000);
  await flush();
  assert.equal(counter.passes, stoppedAt + 1, 'stopped samplers do not sample');
});

/** A started sampler with nothing live; `spawn` starts a program's process; `sampled` lists the pids of each pass. */
function withStarts() {
  const os = new FakeOs();
  const clock = new FakeClock();
  const observed = new ObservedRegistry();
  const sampled: number[][] = [];
  const sampleUsage = os.sampleUsage.bind(os);
  os.sampleUsage = async (pids) => {
    sampled.push([...pids]);
    return sampleUsage(pids);
  };
  const live = new Map<string, number>();
  const sampler = new UsageSampler({ os, clock, observed, livePids: () => live, intervalMs: 5000 });
  sampler.start();
  const spawn = async (id: string) => {
    const { pid } = await os.spawn({ file: 'x', args: [], cwd: '/', env: {}, stdoutPath: '/o', stderrPath: '/e' }, () => undefined);
    live.set(id, pid);
    observed.update(id, { pid, status: 'Running' });
    return pid;
  };
  return { clock, observed, sampled, sampler, spawn };
}

test('a process that just started is sampled at once while someone reads, not at the next (idle) pass', async () => {
  const { clock, observed, sampled, sampler, spawn } = withStarts();
  clock.advance(0);
  await flush();
  assert.deepEqual(sampled, [], 'nothing live: no pass');
  observed.noteUsageRead(clock.now()); // a view is watching
  const pid = await spawn('p');
  assert.equal(observed.get('p').mem_usage, 0);
  clock.advance(0);
  await flush();
  assert.deepEqual(sampled, [[pid]], 'sampled at once, only the new process');
  assert.equal(observed.get('p').mem_usage, 1024 * 1024);
  observed.update('p', { status: 'Running', cpu_usage: 0 });
  clock.advance(0);
  await flush();
  assert.equal(sampled.length, 1, 'an update that keeps the pid does not sample again');
  sampler.stop();
});

test('nobody reading: a start samples nothing, and the next read shows the new process', async () => {
  const { clock, observed, sampled, sampler, spawn } = withStarts();
  const a = await spawn('a');
  clock.advance(0);
  await flush();
  assert.deepEqual(sampled, [], 'no /proc read for a start nobody watches');
  await observed.readUsage(clock.now());
  assert.deepEqual(sampled, [[a]]);
  assert.equal(observed.get('a').mem_usage, 1024 * 1024);
  // Once the read's window has passed nobody watches again: the next start waits for a read too.
  clock.advance(USAGE_DEMAND_WINDOW_MS);
  const b = await spawn('b');
  clock.advance(USAGE_FRESH_MS - 1);
  await flush();
  assert.equal(sampled.length, 1, 'still nothing sampled for b');
  await observed.readUsage(clock.now());
  assert.ok(sampled.slice(1).some((pids: number[]) => pids.includes(b)), `b sampled: ${JSON.stringify(sampled)}`);
  assert.equal(observed.get('b').mem_usage, 1024 * 1024);
  sampler.stop();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeOs } from '../../../controllers/os/fake.js';
import { UsageSampler, IDLE_SLOWDOWN } from '../../../observers/usage-sampler.js';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { ObservedRegistry } from '../../../state/observed.js';

const flush = () => new Promise((r) => setImmediate(r));

test('samples all live programs in one batch; slows down unwatched; samples at once when reads resume', async () => {
  const os = new FakeOs();
  const clock = new FakeClock();
  const observed = new ObservedRegistry();
  let passes = 0;
  const sampleUsage = os.sampleUsage.bind(os);
  os.sampleUsage = async (pids) => {
    passes++;
    return sampleUsage(pids);
  };
  const { pid } = await os.spawn({ file: 'x', args: [], cwd: '/', env: {}, stdoutPath: '/o', stderrPath: '/e' }, () => undefined);
  observed.update('p', { pid, status: 'Running' });
  const sampler = new UsageSampler({ os, clock, observed, livePids: () => new Map([['p', pid]]), intervalMs: 5000 });
  sampler.start();
  clock.advance(0);
  await flush();
  assert.equal(passes, 1);
  assert.equal(observed.get('p').mem_usage, 1024 * 1024);
  clock.advance(5000);
  await flush();
  assert.equal(passes, 1, 'unwatched: the next pass is IDLE_SLOWDOWN intervals away');
  clock.advance(5000 * (IDLE_SLOWDOWN - 1));
  await flush();
  assert.equal(passes, 2);
  observed.noteUsageRead(clock.now());
  clock.advance(0);
  await flush();
  assert.equal(passes, 3, 'a read after a quiet spell samples at once');
  clock.advance(5000);
  await flush();
  assert.equal(passes, 4, 'watched: every interval');
  sampler.stop();
});

test('a process that just started is sampled at once, not at the next (idle) pass', async () => {
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
  clock.advance(0);
  await flush();
  assert.deepEqual(sampled, [], 'nothing live: no pass');
  const { pid } = await os.spawn({ file: 'x', args: [], cwd: '/', env: {}, stdoutPath: '/o', stderrPath: '/e' }, () => undefined);
  live.set('p', pid);
  observed.update('p', { pid, status: 'Running' });
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

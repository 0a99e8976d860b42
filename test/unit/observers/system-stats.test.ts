import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../reconciler/fake-clock.js';
import { SYSTEM_STATS_DEMAND_MS, SystemStatsSampler } from '../../../observers/system-stats.js';
import { parseMeminfo, parseProcStat, type HostReading } from '../../../observers/host-stats.js';

const GiB = 1024 ** 3;
const flush = () => new Promise((r) => setImmediate(r));

test('system stats: sampled at start, refreshed every 3 s while read, never on read itself', async () => {
  const clock = new FakeClock(1_700_000_000_000);
  const readings: HostReading[] = [
    { cpuBusy: 100, cpuTotal: 400, memTotalBytes: 8 * GiB, memAvailableBytes: 6 * GiB },
    { cpuBusy: 150, cpuTotal: 500, memTotalBytes: 8 * GiB, memAvailableBytes: 4 * GiB },
  ];
  let reads = 0;
  const sampler = new SystemStatsSampler({ clock, read: () => Promise.resolve(readings[Math.min(reads++, readings.length - 1)]) });
  assert.equal(sampler.current(), null, 'nothing before the first sample');
  sampler.start();
  await flush();
  assert.deepEqual(sampler.current(), { cpu_percent: 25, memory_used_bytes: 2 * GiB, memory_total_bytes: 8 * GiB, timestamp: 1_700_000_000 });
  for (let i = 0; i < 5; i++) sampler.current();
  assert.equal(reads, 1, 'reading the snapshot does not sample');

  clock.advance(2999);
  await flush();
  assert.equal(reads, 1, 'not refreshed before 3 s');
  clock.advance(1);
  await flush();
  assert.equal(reads, 2);
  assert.deepEqual(sampler.current(), { cpu_percent: 50, memory_used_bytes: 4 * GiB, memory_total_bytes: 8 * GiB, timestamp: 1_700_000_003 });
  sampler.stop();
  clock.advance(10_000);
  await flush();
  assert.equal(reads, 2, 'stopped samplers do not read');
});

test('system stats: nobody reads, no timer; fresh() samples a stale snapshot first', async () => {
  const clock = new FakeClock(1_700_000_000_000);
  let reads = 0;
  const sampler = new SystemStatsSampler({ clock, read: () => Promise.resolve({ cpuBusy: ++reads * 10, cpuTotal: reads * 100, memTotalBytes: 10, memAvailableBytes: 5 }) });
  sampler.start();
  await flush();
  assert.equal(reads, 1);
  assert.equal(clock.nextTimerAt(), null, 'started and unread: nothing armed');
  sampler.current();
  for (let t = 0; t < SYSTEM_STATS_DEMAND_MS + 10_000; t += 1000) {
    clock.advance(1000);
    await flush();
  }
  const afterWatch = reads;
  assert.ok(afterWatch >= 2 && afterWatch <= 2 + SYSTEM_STATS_DEMAND_MS / 3000, `${afterWatch} reads`);
  assert.equal(clock.nextTimerAt(), null, 'the read is over: nothing armed');
  clock.advance(60_000);
  const fresh = await sampler.fresh();
  assert.equal(reads, afterWatch + 1, 'a stale snapshot is sampled before fresh() answers');
  assert.equal(fresh?.timestamp, Math.floor(clock.now() / 1000));
  await sampler.fresh();
  assert.equal(reads, afterWatch + 1, 'a fresh one is shared');
  sampler.stop();
});

test('system stats: a failed read keeps the previous snapshot', async () => {
  const clock = new FakeClock();
  let fail = false;
  const errors: unknown[] = [];
  const sampler = new SystemStatsSampler({
    clock,
    read: () => (fail ? Promise.reject(new Error('no /proc')) : Promise.resolve({ cpuBusy: 1, cpuTotal: 2, memTotalBytes: 10, memAvailableBytes: 5 })),
    onError: (e) => errors.push(e),
  });
  sampler.start();
  await flush();
  fail = true;
  sampler.current(); // read: refreshed while someone reads
  clock.advance(3000);
  await flush();
  assert.equal(sampler.current()?.memory_used_bytes, 5);
  assert.equal(errors.length, 1);
  sampler.stop();
});

test('/proc/stat and /proc/meminfo parsing', () => {
  assert.deepEqual(parseProcStat('cpu  10 0 10 70 10 0 0 0 0 0\ncpu0 1 2 3 4\n'), { cpuBusy: 20, cpuTotal: 100 });
  assert.deepEqual(parseMeminfo('MemTotal:       1000 kB\nMemFree:     100 kB\nMemAvailable:   600 kB\n'), { memTotalBytes: 1000 * 1024, memAvailableBytes: 600 * 1024 });
});

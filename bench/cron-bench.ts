/**
 * Cron scheduler benchmark (not a test): N cron programs due on the same second, driven by the
 * real clock through the same wiring as bin/daemon.ts (the cron controller on a ControllerManager,
 * whose delayed keys share one timer), with the LevelDB store on disk.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/cron-bench.js [programs=1000] [fake|linux]
 *
 * fake: spawns cost nothing, so the figures are the scheduler's own overhead.
 * linux: every run is a real `true` process (fork/exec in its own session, log files appended).
 * Reports the delay from the slot to each cron_started, and the CPU used while idle afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CronController } from '../controllers/cron/controller.js';
import { FakeOs } from '../controllers/os/fake.js';
import { LinuxOs } from '../controllers/os/linux.js';
import type { OsPort } from '../controllers/os/port.js';
import { systemClock } from '../reconciler/clock.js';
import { bindProgramFeeds } from '../controllers/manager-feeds.js';
import { ControllerManager } from '../reconciler/manager.js';
import { CronMarks } from '../state/cron-marks.js';
import type { EventInput } from '../state/events/types.js';
import { ObservedRegistry, type ObservedChange } from '../state/observed.js';
import type { DesiredChange } from '../controllers/program-controller.js';
import { ProgramStore } from '../state/store.js';

const N = Number(process.argv[2] ?? 1000);
const MODE = process.argv[3] === 'linux' ? 'linux' : 'fake';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'svc-cron-bench-'));
  const store = await ProgramStore.open(join(root, 'data'));
  const os: OsPort = MODE === 'linux' ? new LinuxOs() : new FakeOs();
  const observed = new ObservedRegistry();
  const marks = new CronMarks(store.meta);
  const started: number[] = [];
  const exits: number[] = [];
  const events = {
    emit: (e: EventInput) => {
      if (e.event === 'cron_started') started.push(Date.now());
      else if (e.event === 'cron_exit') exits.push(Date.now());
      else if (e.event === 'cron_spawn_failed') console.error(e.msg);
    },
  };
  const manager = new ControllerManager<string, DesiredChange, ObservedChange>({ clock: systemClock, onError: (_n, _k, err) => console.error(err) });
  const cron = new CronController({
    store,
    observed,
    events,
    os,
    clock: systemClock,
    marks,
    spawnContext: { root, logDir: join(root, 'logs'), baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
    boot: { epoch: store.epoch, adopted: new Set(), crashed: false },
    wake: (id) => manager.enqueue('cron', id),
  });
  manager.register(cron);
  const unbind = bindProgramFeeds(manager, store, observed);
  await manager.start();

  // Every program is due on the same second, 3-4 s from now (then once a minute).
  const slot = Math.ceil((Date.now() + 3000) / 1000) * 1000;
  const second = new Date(slot).getUTCSeconds();
  const t0 = performance.now();
  await store.create(Array.from({ length: N }, (_, i) => ({ name: `job${i}`, command: 'true', cron: `${second} * * * * *`, cron_tz: 'UTC' })));
  await manager.idle();
  console.log(`created and scheduled ${N} cron programs in ${(performance.now() - t0).toFixed(0)} ms`);

  const cpuBefore = process.cpuUsage();
  while (started.length < N && Date.now() < slot + 30_000) await sleep(20);
  const cpuFire = process.cpuUsage(cpuBefore);
  const delays = started.map((t) => t - slot).sort((a, b) => a - b);
  const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))];
  console.log(`fired ${started.length}/${N} runs (${MODE} OS): delay after the slot first ${delays[0]} ms, p50 ${pct(50)} ms, p99 ${pct(99)} ms, last ${delays[delays.length - 1]} ms`);
  console.log(`cpu while waiting for and firing the slot: ${((cpuFire.user + cpuFire.system) / 1000).toFixed(0)} ms`);
  if (MODE === 'linux') {
    while (exits.length < N && Date.now() < slot + 60_000) await sleep(50);
    console.log(`${exits.length} runs exited and were recorded ${Math.max(...exits) - slot} ms after the slot`);
  }

  await sleep(500);
  const idleFrom = process.cpuUsage();
  const idleMs = 5000;
  await sleep(idleMs);
  const idle = process.cpuUsage(idleFrom);
  console.log(`idle until the next slot: ${((idle.user + idle.system) / 1000).toFixed(1)} ms cpu in ${idleMs} ms`);

  unbind();
  await manager.stop();
  await store.close();
  rmSync(root, { recursive: true, force: true });
}

await main();

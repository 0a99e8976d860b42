import { MemoryLevel } from 'memory-level';
import { CronController } from '../../controllers/cron/controller.js';
import { FakeOs } from '../../controllers/os/fake.js';
import { FakeClock } from '../../reconciler/fake-clock.js';
import { managerHarness } from './manager-harness.js';
import { CronMarks } from '../../state/cron-marks.js';
import type { EventInput } from '../../state/events/types.js';
import { ObservedRegistry } from '../../state/observed.js';
import type { Intent, ProgramConfig } from '../../state/program.js';
import { ProgramStore } from '../../state/store.js';

/** 2024-01-01T00:00:00Z: a round time, so that slots are easy to read in tests. */
export const T0 = Date.UTC(2024, 0, 1, 0, 0, 0);
export const MIN = 60_000;

export interface CronHarnessOptions {
  /** Reuse the database of a previous harness (a daemon restart). */
  db?: MemoryLevel<string, string>;
  now?: number;
  os?: FakeOs;
}

/**
 * The cron controller wired to a fake OS, a fake clock and an in-memory LevelDB, with its own
 * reconcile loop, as bin/daemon.ts wires it: deterministic, no sleeps.
 */
export async function cronHarness(opts: CronHarnessOptions = {}) {
  const db = opts.db ?? new MemoryLevel<string, string>();
  if (db.status === 'closed') await db.open(); // a restarted daemon: memory-level keeps its data
  const os = opts.os ?? new FakeOs();
  const clock = new FakeClock(opts.now ?? T0);
  const store = await ProgramStore.fromDb(db);
  const observed = new ObservedRegistry();
  const marks = new CronMarks(store.meta);
  const events: EventInput[] = [];
  let random = 0;
  const m = managerHarness(clock, store, observed);
  const cron = new CronController({
    store,
    observed,
    events: { emit: (e) => events.push(e) },
    os,
    clock,
    marks,
    spawnContext: { root: '/srv', logDir: '/srv/logs', baseEnv: { PATH: '/usr/bin' } },
    boot: { epoch: store.epoch, adopted: new Set(), crashed: false },
    wake: m.wake('cron'),
    random: () => random,
  });
  await m.start(cron);
  const { settle, advance } = m;
  const advanceTo = (at: number) => advance(at - clock.now());
  const add = async (config: Partial<ProgramConfig> & { name: string; cron: string }) => {
    const [record] = await store.create([{ command: 'job', cron_tz: 'UTC', ...config }], clock.now());
    await settle();
    return record.id;
  };
  const setIntent = async (id: string, next: (i: Intent) => Intent) => {
    await store.setIntents([id], next);
    await settle();
  };
  const alive = () => os.alive();
  return {
    db,
    os,
    clock,
    store,
    observed,
    marks,
    events,
    cron,
    /** Daemon shutdown (a condition every planner reads). */
    shutdown: async () => {
      observed.beginShutdown();
      await settle();
    },
    settle,
    advance,
    advanceTo,
    add,
    setIntent,
    alive,
    pause: (id: string, force = false) => setIntent(id, (i) => ({ ...i, run: 'stopped', force })),
    resume: (id: string) => setIntent(id, (i) => ({ ...i, run: 'running', start_seq: i.start_seq + 1, force: false })),
    trigger: (id: string) => setIntent(id, (i) => ({ ...i, run: 'running', restart_seq: i.restart_seq + 1, force: false })),
    types: () => events.map((e) => e.event),
    ofType: (type: string) => events.filter((e) => e.event === type),
    status: (id: string) => observed.get(id).status,
    cronOf: (id: string) => observed.get(id).cron!,
    setRandom: (r: number) => (random = r),
    /** Stops the loop and flushes marks, leaving the database open (a daemon going down). */
    down: async () => {
      await m.stop();
    },
    close: async () => {
      await m.stop();
      await store.close();
    },
  };
}

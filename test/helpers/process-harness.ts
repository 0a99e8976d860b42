import { DepartingPrograms } from '../../state/departing.js';
import { MemoryLevel } from 'memory-level';
import { FakeOs } from '../../controllers/os/fake.js';
import { ProcessController } from '../../controllers/process/controller.js';
import { FakeClock } from '../../reconciler/fake-clock.js';
import { managerHarness } from './manager-harness.js';
import { signalOwner } from '../../controllers/program-controller.js';
import { ProgramActions } from '../../operations/actions.js';
import type { EventInput } from '../../state/events/types.js';
import { ObservedRegistry } from '../../state/observed.js';
import type { ProgramConfig } from '../../state/program.js';
import { ProgramStore } from '../../state/store.js';
import { RuntimeStore } from '../../state/runtime-store.js';
import { SupervisionStore } from '../../state/supervision-store.js';
import { LiveMarker } from '../../state/live-marker.js';

/**
 * The process controller wired to a fake OS, a fake clock and an in-memory LevelDB: the whole
 * reconcile loop, deterministic and without sleeps.
 */
export async function processHarness(opts: { db?: MemoryLevel<string, string>; os?: FakeOs; runtime?: boolean; bootId?: string; now?: number } = {}) {
  const os = opts.os ?? new FakeOs();
  const clock = new FakeClock(opts.now);
  const db = opts.db ?? new MemoryLevel<string, string>();
  if (db.status === 'closed') await db.open(); // a restarted daemon: memory-level keeps its data
  const store = await ProgramStore.fromDb(db, { clock });
  const observed = new ObservedRegistry();
  const departing = new DepartingPrograms();
  const events: EventInput[] = [];
  let random = 0.5;
  const m = managerHarness(clock, store, observed);
  // As svcd: with a machine boot id, a start after a crash (no graceful shutdown) is not a boot.
  const marker = opts.bootId !== undefined ? new LiveMarker(store.meta, opts.bootId) : null;
  const crashed = marker ? await marker.arm(4242, clock.now()) : false;
  const controller = new ProcessController({
    store,
    observed,
    events: { emit: (e) => events.push(e) },
    os,
    clock,
    runtime: opts.runtime ? new RuntimeStore(store.meta) : null,
    supervision: opts.bootId !== undefined ? new SupervisionStore(store.meta, opts.bootId) : null,
    spawnContext: { root: '/srv', logDir: '/srv/logs', baseEnv: { PATH: '/usr/bin' } },
    boot: { epoch: store.epoch, adopted: new Set(), crashed },
    wake: m.wake('process'),
    random: () => random,
    departing,
  });
  await m.start(controller);
  /** Lets the loop run until nothing is ready (timers in the future stay pending). */
  const { settle, advance } = m;
  const add = async (config: Partial<ProgramConfig> & { name: string }) => {
    const [record] = await store.create([{ command: 'app', ...config }]);
    await settle();
    return record.id;
  };
  const pidOf = (id: string) => observed.get(id).pid!;
  const types = () => events.map((e) => e.event);
  return {
    db,
    os,
    clock,
    store,
    observed,
    events,
    controller,
    departing,
    manager: m.manager,
    actions: new ProgramActions(store, observed, signalOwner([controller])),
    settle,
    advance,
    add,
    pidOf,
    types,
    setRandom: (r: number) => (random = r),
    status: (id: string) => observed.get(id).status,
    /** Stops the loops and closes the store (the database stays for a "restarted daemon"). */
    close: async () => {
      await m.stop();
      await store.close();
    },
    /** A graceful shutdown: svcd stops everything, then the loops and the store. */
    shutdown: async () => {
      observed.beginShutdown();
      await settle();
      await m.stop();
      await marker?.disarm();
      await store.close();
    },
    /** The daemon dies: nothing is stopped or flushed beyond what already reached the store. */
    crash: async () => {
      await m.stop();
      await store.close();
    },
  };
}

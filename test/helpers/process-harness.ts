import { MemoryLevel } from 'memory-level';
import { FakeOs } from '../../controllers/os/fake.js';
import { ProcessController } from '../../controllers/process/controller.js';
import { FakeClock } from '../../reconciler/fake-clock.js';
import { loopDriver } from './loop-driver.js';
import { Reconciler } from '../../reconciler/reconciler.js';
import { ProgramActions } from '../../operations/actions.js';
import type { EventInput } from '../../state/events/types.js';
import { ObservedRegistry } from '../../state/observed.js';
import type { ProgramConfig } from '../../state/program.js';
import { ProgramStore } from '../../state/store.js';

/**
 * The process controller wired to a fake OS, a fake clock and an in-memory LevelDB: the whole
 * reconcile loop, deterministic and without sleeps.
 */
export async function processHarness(opts: { db?: MemoryLevel<string, string> } = {}) {
  const os = new FakeOs();
  const clock = new FakeClock();
  const store = await ProgramStore.fromDb(opts.db ?? new MemoryLevel(), { clock });
  const observed = new ObservedRegistry();
  const events: EventInput[] = [];
  let random = 0.5;
  const loop: { reconciler?: Reconciler<string> } = {};
  const controller = new ProcessController({
    store,
    observed,
    events: { emit: (e) => events.push(e) },
    os,
    clock,
    runtime: null,
    spawnContext: { root: '/srv', logDir: '/srv/logs', baseEnv: { PATH: '/usr/bin' } },
    enqueue: (id) => loop.reconciler?.enqueue(id),
    random: () => random,
  });
  const reconciler = (loop.reconciler = new Reconciler(clock, controller.reconcile));
  store.onChange((ids) => ids.forEach((id) => reconciler.enqueue(id)));
  reconciler.start();

  /** Lets the loop run until nothing is ready (timers in the future stay pending). */
  const { settle, advance } = loopDriver(clock, [reconciler]);
  const add = async (config: Partial<ProgramConfig> & { name: string }) => {
    const [record] = await store.create([{ command: 'app', ...config }]);
    await settle();
    return record.id;
  };
  const pidOf = (id: string) => observed.get(id).pid!;
  const types = () => events.map((e) => e.event);
  return {
    os,
    clock,
    store,
    observed,
    events,
    controller,
    reconciler,
    actions: new ProgramActions(store, observed, controller),
    settle,
    advance,
    add,
    pidOf,
    types,
    setRandom: (r: number) => (random = r),
    status: (id: string) => observed.get(id).status,
    close: async () => {
      await reconciler.stop();
      await store.close();
    },
  };
}

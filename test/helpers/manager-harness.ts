import { bindProgramFeeds } from '../../controllers/manager-feeds.js';
import type { DesiredChange, ProgramController } from '../../controllers/program-controller.js';
import type { FakeClock } from '../../reconciler/fake-clock.js';
import { ControllerManager } from '../../reconciler/manager.js';
import type { ObservedChange, ObservedRegistry } from '../../state/observed.js';
import type { ProgramStore } from '../../state/store.js';
import { loopDriver } from './loop-driver.js';

/**
 * Controllers on a ControllerManager, wired to the store and observed feeds exactly as
 * bin/daemon.ts wires them, driven by a fake clock. A reconcile that throws fails the test.
 */
export function managerHarness(clock: FakeClock, store: ProgramStore, observed: ObservedRegistry) {
  const errors: unknown[] = [];
  const manager = new ControllerManager<string, DesiredChange, ObservedChange>({ clock, onError: (_name, _key, err) => errors.push(err) });
  const unbind = bindProgramFeeds(manager, store, observed);
  const driver = { settle: async () => undefined as void, advance: async (_ms: number) => undefined as void };
  return {
    manager,
    errors,
    wake: (name: string) => (id: string) => manager.enqueue(name, id),
    /** Registers the controllers and starts the loops (prepare, initial keys). */
    start: async (...controllers: ProgramController[]) => {
      for (const c of controllers) manager.register(c);
      await manager.start();
      Object.assign(driver, loopDriver(clock, manager.loops()));
    },
    settle: () => driver.settle(),
    advance: (ms: number) => driver.advance(ms),
    /** kill -9: the loops take no more work; passes in flight never report back. */
    crash: () => {
      unbind();
      for (const loop of manager.loops()) loop.queue.shutDown();
    },
    stop: async () => {
      unbind();
      await manager.stop();
      if (errors.length > 0) throw errors[0];
    },
  };
}

import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Clock } from '../../reconciler/clock.js';
import type { EventBus } from '../../state/events/bus.js';
import type { PluginLibrary } from '../host/open-library.js';
import { NotifyNative } from './native.js';
import { NotifyService, type NotifyLog } from './service.js';
import { watchFile } from './watch.js';

/** How long svcd's shutdown waits for the last messages (open groups, the queue) to be delivered. */
const SHUTDOWN_DRAIN_MS = 5000;

export interface NotifyRuntime {
  service: NotifyService;
  close(): Promise<void>;
}

/**
 * Starts the notify plugin once notify.so is loaded: reads conf/notify.toml (a bad file at start
 * leaves no channels and shows the error in GET /api/v1/system/notify; svcd still starts),
 * subscribes to the event bus and hot-reloads the file with chokidar.
 */
export async function openNotify(lib: PluginLibrary, deps: { root: string; bus: EventBus; clock: Clock; log: NotifyLog }): Promise<NotifyRuntime> {
  const file = join(deps.root, 'conf', 'notify.toml');
  const service = new NotifyService({ file, kernel: new NotifyNative(lib), clock: deps.clock, events: deps.bus, log: deps.log });
  service.reload();
  mkdirSync(dirname(file), { recursive: true }); // watched even before a first notify.toml exists
  const unsubscribe = deps.bus.subscribe((record) => service.onEvent(record));
  const stopWatch = await watchFile(file, () => service.reload(), (err) => deps.log.warn('notify: watch error', { file, error: String(err) }));
  return {
    service,
    async close() {
      unsubscribe();
      await stopWatch();
      await service.close(SHUTDOWN_DRAIN_MS);
    },
  };
}

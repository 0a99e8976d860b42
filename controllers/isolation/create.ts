import type { SvcConfig } from '../../conf/keys.js';
import type { Clock } from '../../reconciler/clock.js';
import type { PluginRuntime } from '../../plugins/boot/runtime.js';
import { pluginDir } from '../../plugins/host/discover.js';
import type { EventSink } from '../../state/events/types.js';
import type { ObservedRegistry } from '../../state/observed.js';
import type { ProgramStore } from '../../state/store.js';
import { sessionMembers } from '../os/session-members.js';
import { IsolationController } from './controller.js';
import { limitsOf } from './limits.js';
import { isolationHost } from './setup.js';

/**
 * The isolation controller of a daemon (one registration in bin/daemon.ts). When limits cannot
 * be enforced, svcd logs one warning saying why: always when the plugin is loaded, otherwise
 * only when a stored program has resource_limits.
 */
export function createIsolation(deps: {
  config: SvcConfig;
  plugins: PluginRuntime | undefined;
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  clock: Clock;
  wake: (id: string) => void;
  log: { warn(msg: string, fields?: Record<string, unknown>): void; info(msg: string, fields?: Record<string, unknown>): void };
}): IsolationController {
  const { config, log } = deps;
  const host = isolationHost({ plugins: deps.plugins, pluginDir: pluginDir(config.root), cgroupRoot: config.isolation.cgroup_root, uid: process.getuid?.() ?? -1 });
  const loaded = deps.plugins?.libraries.some((l) => l.name === 'isolation') ?? false;
  if ('reason' in host) {
    if (loaded || deps.store.list().some((r) => limitsOf(r.config))) log.warn(`resource_limits are stored but not enforced: ${host.reason}`);
  } else {
    log.info('resource_limits are enforced with cgroup v2', { cgroup: host.parent });
  }
  return new IsolationController({ ...deps, host, root: config.root, sessionOf: sessionMembers, warn: (msg, fields) => log.warn(msg, fields) });
}

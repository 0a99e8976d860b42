import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../reconciler/clock.js';
import type { EventBus } from '../../state/events/bus.js';
import type { OsPort } from '../os/port.js';
import { Reactor } from './reactor.js';
import { startReactionsFile } from './watch.js';

/** Beyond every run's own timeout, how long shutdown waits for reaction runs in flight. */
const CLOSE_BOUND_MS = 5000;

/**
 * Production glue: a Reactor fed by the event bus, configured by `$SVC_ROOT/conf/reactions.toml`
 * (watched). Its runs use the daemon's OS port (the spawner when in use) and environment.
 */
export async function startReactions(opts: {
  root: string;
  logDir: string;
  os: OsPort;
  clock: Clock;
  events: EventBus;
  log: { debug(msg: string, fields?: Record<string, unknown>): void; info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };
  file?: string;
  watch?: boolean;
}): Promise<{ reactor: Reactor; close(): Promise<void> }> {
  const file = opts.file ?? join(opts.root, 'conf', 'reactions.toml');
  await removeLeftoverInputs(join(opts.root, 'run', 'reactions'));
  const reactor = new Reactor({ os: opts.os, events: opts.events, clock: opts.clock, root: opts.root, logDir: opts.logDir, baseEnv: process.env, file, log: opts.log });
  const watched = await startReactionsFile({ file, root: opts.root, reactor, log: opts.log, watch: opts.watch ?? true });
  const unsubscribe = opts.events.subscribe(reactor.onEvent);
  return {
    reactor,
    async close() {
      unsubscribe();
      await watched.close();
      await reactor.close(CLOSE_BOUND_MS);
    },
  };
}

/**
 * The stdin files of runs a previous svcd did not see end (it crashed, or stopped while they
 * ran): no run of this svcd has started yet, and a run still alive holds its stdin open already.
 */
async function removeLeftoverInputs(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // none yet
  }
  await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => rm(join(dir, n), { force: true }).catch(() => undefined)));
}

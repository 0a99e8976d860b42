import { join } from 'node:path';
import type { SvcConfig } from '../../conf/keys.js';
import { ControllerStatusStore } from '../../state/controller-status.js';
import type { EventSink } from '../../state/events/types.js';
import type { MetaLevel } from '../../state/keyed-writer.js';
import type { StackApplier } from '../apply.js';
import type { Timers } from '../directory.js';
import { gitCli } from './git-cli.js';
import { sharedDocumentParser } from '../parse-worker/parser.js';
import type { GitPort } from './port.js';
import type { GitSourceRecord } from './status.js';
import { GitSync } from './sync.js';

/**
 * Production glue for `[[stacks.git]]`: the system git on `<data_dir>/git/`, durable records,
 * the drift guard on the shared applier; then the start sync of every source
 * (in the background: a slow remote never holds up svcd's start).
 */
export async function startGitSources(opts: {
  config: SvcConfig;
  clock: Timers;
  applier: StackApplier;
  events: EventSink;
  log: { info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };
  meta: MetaLevel;
  git?: GitPort;
}): Promise<{ sync: GitSync; stop(): Promise<void> }> {
  const { config, clock, applier } = opts;
  const sync = new GitSync({
    sources: config.git ?? [],
    git: opts.git ?? gitCli(join(config.storage.data_dir, 'git'), { maxFileBytes: config.server.max_body_bytes }),
    applier,
    clock,
    events: opts.events,
    log: opts.log,
    records: new ControllerStatusStore<GitSourceRecord>(opts.meta, 'gitops'),
    parser: sharedDocumentParser(),
  });
  applier.ownerGuard = (record, change, by) => sync.refuseDrift(record, change, by);
  await sync.start();
  return {
    sync,
    async stop() {
      sync.close();
      await sync.idle();
    },
  };
}

import { readFileSync } from 'node:fs';
import type { SvcConfig } from '../conf/keys.js';
import type { Logger } from '../conf/logger.js';
import { OtaController } from '../controllers/ota/controller.js';
import { realOtaPorts } from '../controllers/ota/real-ports.js';
import type { OtaRecord } from '../controllers/ota/record.js';
import type { OsPort } from '../controllers/os/port.js';
import type { Clock } from '../reconciler/clock.js';
import type { Reconciler, Result } from '../reconciler/reconciler.js';
import { ControllerStatusStore } from '../state/controller-status.js';
import type { EventSink } from '../state/events/types.js';
import type { ObservedRegistry } from '../state/observed.js';
import type { ProgramStore } from '../state/store.js';

/** The PEM bundle of `[ota] ca_file`, checked at start-up (a typo should not surface at the first update). */
function readCaFile(file: string): string | null {
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`ota.ca_file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`ota.ca_file: ${file} holds no PEM certificate`);
  return text;
}

/**
 * Builds and starts the OTA controller on its own loop (docs/ota.md). Until the controller
 * manager lands this does what it will do: load the status records, fan store and observed
 * changes out to the controller's watches, enqueue its initial keys.
 */
export async function startOta(deps: {
  config: SvcConfig;
  store: ProgramStore;
  observed: ObservedRegistry;
  events: EventSink;
  clock: Clock;
  os: OsPort;
  log: Logger;
  loop: (reconcile: (id: string) => Promise<Result | void>) => Reconciler<string>;
}): Promise<{ close(): Promise<void> }> {
  const { config, store, observed, log } = deps;
  const ports = realOtaPorts({ clock: deps.clock, os: deps.os, ca: readCaFile(config.ota.ca_file) });
  const ota = new OtaController({
    store,
    observed,
    events: deps.events,
    clock: deps.clock,
    status: new ControllerStatusStore<OtaRecord>(store.meta, 'ota'),
    ports,
    limits: { maxDownloadBytes: config.ota.max_download_bytes, maxExtractBytes: config.ota.max_extract_bytes, maxAttempts: config.ota.max_attempts },
    wake: (id) => loop.enqueue(id),
    warn: (msg, fields) => log.warn(msg, fields),
  });
  await ota.prepare();
  const loop = deps.loop(ota.reconcile);
  const unsubscribe = [
    store.onChange((ids) => ota.watches.desired(ids).forEach((id) => loop.enqueue(id))),
    observed.subscribe((id, next) => ota.watches.observed({ id, next }).forEach((key) => loop.enqueue(key))),
  ];
  for (const id of ota.initialKeys()) loop.enqueue(id);
  loop.start();
  return {
    async close() {
      unsubscribe.forEach((off) => off());
      await loop.stop();
      await ota.close();
    },
  };
}

import { conflict, forProgram, invalid } from '../state/errors.js';
import type { ObservedRegistry } from '../state/observed.js';
import type { OtaView } from '../state/ota.js';
import type { ProgramRecord } from '../state/program.js';
import type { ProgramStore } from '../state/store.js';

/** How long a rollback request waits for the controller to act before answering. */
const ROLLBACK_WAIT_MS = 30_000;

export interface OtaRollbackOutcome {
  id: string;
  name: string;
  ok: boolean;
  ota: OtaView | null;
  error?: string;
}

/**
 * `svc ota rollback`: an intent (`ota_rollback_seq`, durable in the store) that the OTA
 * controller acts on once; this waits (bounded) until it has, so the CLI can say what happened.
 */
export async function requestOtaRollback(store: ProgramStore, observed: ObservedRegistry, record: ProgramRecord, waitMs = ROLLBACK_WAIT_MS): Promise<OtaRollbackOutcome> {
  const name = record.config.name;
  if (!record.config.artifact) throw invalid(forProgram(name, 'artifact: the program has no artifact, so nothing to roll back'));
  const before = observed.get(record.id).ota;
  if (before && before.phase === 'idle' && before.backup === null) {
    throw conflict(forProgram(name, `nothing to roll back to: there is no backup of a previous binary (installed: ${before.installed?.slice(0, 12) ?? 'none'})`));
  }
  const [written] = await store.setIntents([record.id], (i) => ({ ...i, ota_rollback_seq: (i.ota_rollback_seq ?? 0) + 1 }));
  const seq = written.intent.ota_rollback_seq ?? 0;
  const handled = (o: { ota?: OtaView } | null) => o?.ota !== undefined && o.ota.rollback_seq >= seq && o.ota.phase !== 'rolling_back';
  const seen = await observed.waitFor(record.id, handled, waitMs);
  const ota = seen?.ota ?? null;
  if (!handled(seen)) return { id: record.id, name, ok: false, ota, error: `still ${ota?.phase ?? 'pending'} after ${waitMs / 1000} s; the controller keeps trying` };
  const ok = ota?.last?.result === 'rolled_back';
  return { id: record.id, name, ok, ota, ...(ok ? {} : { error: forProgram(name, ota?.last?.reason ?? 'rollback not done') }) };
}

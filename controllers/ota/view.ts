import type { ObservedProgram } from '../../state/observed.js';
import type { OtaDownloadProgress, OtaView } from '../../state/ota.js';
import type { OtaDesired, OtaObserved } from './plan-types.js';
import type { OtaRecord } from './record.js';

/** The `ota` condition published in the observed state (docs/ota.md, "Status"). */
export function otaView(r: OtaRecord, d: OtaDesired | null, o: ObservedProgram, download: OtaDownloadProgress | null = null): OtaView {
  // manual: the process that was live at the swap runs the previous binary until restarted.
  const pending = d?.policy.kind === 'manual' && r.swap_pid !== null && r.restart === null && o.pid === r.swap_pid;
  return {
    phase: r.phase,
    installed: r.installed?.checksum ?? null,
    target: r.target,
    backup: r.backup?.checksum ?? null,
    attempts: r.attempts,
    next_attempt_at: r.next_attempt_at,
    rejected: r.rejected,
    restart_pending: pending,
    swapped_at: r.swapped_at,
    deadline: r.deadline,
    last: r.last,
    rollback_seq: r.rollback_seq,
    download: r.phase === 'downloading' ? download : null,
  };
}

/** What the planner reads of a program's observed state. */
export function observedFacts(o: ObservedProgram): OtaObserved {
  const last = o.health?.last ?? null;
  return {
    status: o.status,
    pid: o.pid,
    started_at: o.started_at,
    last_exit: o.last_exit ? { at: o.last_exit.at, reason: o.last_exit.reason, msg: o.last_exit.msg } : null,
    health_last: last ? { at: last.at, ok: last.ok, message: last.message } : null,
  };
}

/** The observed facts OTA decisions depend on; usage samples do not change it. */
export function observedFingerprint(o: ObservedProgram | null): string {
  if (!o) return 'gone';
  return `${o.pid}:${o.status}:${o.started_at}:${o.last_exit?.at ?? ''}:${o.health?.last?.at ?? ''}`;
}

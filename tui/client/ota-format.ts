import type { OtaView } from '../../state/ota.js';
import { bytes, timestamp } from './format.js';

const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 12) : '-');

/**
 * The checksum an OTA update is heading for: the one being installed, or else the desired one
 * when it is neither installed nor rejected (an update about to start). Checksums are compared
 * without regard to case: svcd installs `ABC…` and `abc…` as the same digest and reports it in
 * lower case.
 */
export function pendingTarget(desired: string | null | undefined, o: OtaView | null | undefined): string | null {
  if (o?.target) return o.target;
  const want = desired?.toLowerCase();
  return want && want !== o?.installed && want !== o?.rejected ? want : null;
}

/** One line: phase, installed -> target, what the new binary waits for. */
export function otaSummary(o: OtaView): string {
  // From the swap on, installed is the target already.
  const target = o.target && o.target !== o.installed ? ` -> ${short(o.target)}` : '';
  const retry = o.phase === 'retry_wait' && o.next_attempt_at ? ` (attempt ${o.attempts + 1} at ${timestamp(o.next_attempt_at)})` : '';
  return `${o.phase}${retry}${progress(o)}   installed: ${short(o.installed)}${target}${waitsFor(o)}`;
}

/** How far a download has come: ` 12.0 MiB of 48.0 MiB (25%)`, or the bytes alone when no size was announced. */
function progress(o: OtaView): string {
  const d = o.phase === 'downloading' ? o.download : null;
  if (!d) return '';
  if (d.total_bytes === null || d.total_bytes <= 0) return ` ${bytes(d.received_bytes)}`;
  return ` ${bytes(d.received_bytes)} of ${bytes(d.total_bytes)} (${Math.floor((100 * d.received_bytes) / d.total_bytes)}%)`;
}

/** After the swap: a manual restart, or (no deadline: nothing was restarted) a program not running. */
function waitsFor(o: OtaView): string {
  if (o.restart_pending) return '   restart pending (restart_policy = manual)';
  if (o.phase === 'restarting' && o.deadline === null) return "   validated at the program's next start";
  return '';
}

/** The OTA lines of `svc info` and `svc ota status NAME`. */
export function otaLines(o: OtaView, indent = ''): string[] {
  const lines = [`ota:         ${otaSummary(o)}`];
  if (o.backup) lines.push(`  backup:    ${short(o.backup)} (svc ota rollback restores it)`);
  if (o.rejected) lines.push(`  rejected:  ${short(o.rejected)} (not tried again until the checksum changes)`);
  if (o.deadline && (o.phase === 'restarting' || o.phase === 'validating')) lines.push(`  deadline:  ${timestamp(o.deadline)}`);
  if (o.last) lines.push(`  last:      ${o.last.result} at ${timestamp(o.last.at)}: ${o.last.reason}`);
  return lines.map((l) => `${indent}${l}`);
}

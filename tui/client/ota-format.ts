import type { OtaView } from '../../state/ota.js';
import { timestamp } from './format.js';

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

/** One line: phase, installed -> target, pending restart. */
export function otaSummary(o: OtaView): string {
  const target = o.target ? ` -> ${short(o.target)}` : '';
  const retry = o.phase === 'retry_wait' && o.next_attempt_at ? ` (attempt ${o.attempts + 1} at ${timestamp(o.next_attempt_at)})` : '';
  const pending = o.restart_pending ? '   restart pending (restart_policy = manual)' : '';
  return `${o.phase}${retry}   installed: ${short(o.installed)}${target}${pending}`;
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

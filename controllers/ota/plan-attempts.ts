import type { PlanContext } from './plan-context.js';
import { short, type OtaRecord } from './record.js';
import { redactUrl } from '../../state/redact-url.js';

/** Backoff between failed attempts: 10 s, doubling, at most 5 minutes (docs/ota.md). */
export const RETRY_BASE_MS = 10_000;
export const RETRY_MAX_MS = 300_000;

export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}

/** IDLE: install the desired checksum unless it is installed already or was rejected. */
export function planIdle(ctx: PlanContext, r: OtaRecord): OtaRecord {
  const want = ctx.desired.checksum;
  // A rejected checksum is forgotten once the desired checksum moves away from it.
  if (r.rejected !== null && r.rejected !== want) r = { ...r, rejected: null };
  if (want === r.installed?.checksum || want === r.rejected) return r;
  return start(ctx, r);
}

/** IDLE -> DOWNLOADING */
function start(ctx: PlanContext, r: OtaRecord): OtaRecord {
  const d = ctx.desired;
  const from = r.installed ? ` (installed: ${short(r.installed.checksum)})` : ' (destination missing)';
  ctx.event('ota_started', `updating ${d.destination} to ${short(d.checksum)} from ${redactUrl(d.source)}${from}`);
  return { ...r, phase: 'downloading', target: d.checksum, attempts: 0, staged: null, backup_next: null, next_attempt_at: null, rollback_reason: null };
}

/**
 * Abandons an update before the swap: only temporary files existed. `why` closes its story in
 * the history (an ota_cancelled after its ota_started), e.g. `superseded by <sha12>`.
 */
export function cancelToIdle(ctx: PlanContext, r: OtaRecord, why: string): OtaRecord {
  abandoned(ctx, r, why);
  ctx.cleanup(r.destination);
  return { ...r, phase: 'idle', target: null, staged: null, backup_next: null, next_attempt_at: null, attempts: 0 };
}

/** Records that the update to r.target stops here, before its swap (nothing when none was under way). */
export function abandoned(ctx: PlanContext, r: OtaRecord, why: string): void {
  if (r.target) ctx.event('ota_cancelled', `abandoned the update to ${short(r.target)} before its swap: ${why}`);
}

/** An attempt failed before the swap (destination untouched): RETRY_WAIT, or give up at the cap. */
export function failAttempt(ctx: PlanContext, r: OtaRecord, reason: string): OtaRecord {
  const failures = r.attempts + 1;
  const max = ctx.input.maxAttempts;
  if (failures >= max) return giveUp(ctx, { ...r, attempts: failures }, `${reason} (attempt ${failures} of ${max}; not retried until the checksum changes)`);
  ctx.cleanup(r.destination);
  const delay = retryDelayMs(failures);
  const text = `${reason} (attempt ${failures} of ${max}; retrying in ${Math.round(delay / 1000)} s)`;
  ctx.event('ota_failed', text);
  ctx.wakeAt(ctx.now + delay);
  return { ...r, phase: 'retry_wait', attempts: failures, next_attempt_at: ctx.now + delay, staged: null, backup_next: null, last: ctx.last('retrying', text, r.target) };
}

/** -> IDLE with the target rejected until the desired checksum changes. */
export function giveUp(ctx: PlanContext, r: OtaRecord, reason: string): OtaRecord {
  ctx.cleanup(r.destination);
  ctx.event('ota_failed', reason);
  return { ...r, phase: 'idle', rejected: r.target, target: null, staged: null, backup_next: null, next_attempt_at: null, last: ctx.last('failed', reason, r.target) };
}

/** RETRY_WAIT -> DOWNLOADING when due. */
export function planRetryWait(ctx: PlanContext, r: OtaRecord): OtaRecord {
  if (r.target !== ctx.desired.checksum) return planIdle(ctx, cancelToIdle(ctx, r, `superseded by ${short(ctx.desired.checksum)}`));
  const due = r.next_attempt_at ?? 0;
  if (ctx.now >= due) return { ...r, phase: 'downloading', next_attempt_at: null };
  ctx.wakeAt(due);
  return r;
}

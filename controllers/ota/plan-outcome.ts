import type { OtaPhase } from '../../state/ota.js';
import { failAttempt, giveUp } from './plan-attempts.js';
import type { PlanContext } from './plan-context.js';
import { afterRollback, afterSwap, fail, rollbackFailed } from './plan-restart.js';
import type { StepName, StepOutcome } from './plan-types.js';
import { freshRecord, type OtaRecord } from './record.js';

/** The step each persisted phase takes. */
export const STEP_OF: Partial<Record<OtaPhase, Exclude<StepName, 'inspect' | 'signal'>>> = {
  downloading: 'download',
  verifying: 'verify',
  extracting: 'extract',
  backing_up: 'backup',
  swapping: 'swap',
  rolling_back: 'rollback',
};

/** Judges a finished step. An outcome that no longer matches the record (stale, cancelled) changes nothing. */
export function judgeOutcome(ctx: PlanContext, r: OtaRecord | null, o: StepOutcome): OtaRecord | null {
  if (o.step === 'inspect') return judgeInspect(ctx, r, o);
  if (!r) return r;
  const expected = r.phase === 'restarting' ? 'signal' : STEP_OF[r.phase];
  if (o.step !== expected || o.target !== r.target) return r;
  if (!o.ok) return o.aborted ? r : judgeFailure(ctx, r, o.step, o.error, o.permanent, o.backupCommitted === true);
  switch (o.step) {
    case 'download':
      return { ...r, phase: 'verifying' }; // DOWNLOADING -> VERIFYING
    case 'verify':
      if (o.digest !== r.target) return failAttempt(ctx, r, `checksum mismatch: expected ${r.target}, got ${o.digest}`);
      // VERIFYING -> EXTRACTING | BACKING_UP
      return ctx.desired.extract ? { ...r, phase: 'extracting' } : { ...r, phase: 'backing_up', staged: o.digest };
    case 'extract':
      return { ...r, phase: 'backing_up', staged: o.digest }; // EXTRACTING -> BACKING_UP
    case 'backup': {
      // BACKING_UP -> SWAPPING; a destination changed behind svc's back is known by its digest only.
      const same = r.installed !== null && r.installed.digest === o.digest;
      const backupNext = o.digest === null ? null : { checksum: same ? r.installed!.checksum : o.digest, digest: o.digest };
      return { ...r, phase: 'swapping', backup_next: backupNext };
    }
    case 'swap':
      return afterSwap(ctx, r);
    case 'rollback':
      return afterRollback(ctx, r);
    case 'signal':
      // RESTARTING -> VALIDATING: the same process, judged from the signal on.
      return { ...r, phase: 'validating', validating: { pid: o.pid, since: ctx.now }, deadline: ctx.now + ctx.desired.verifyTimeoutMs };
  }
}

function judgeInspect(ctx: PlanContext, r: OtaRecord | null, o: StepOutcome): OtaRecord | null {
  const destination = 'destination' in o ? o.destination : undefined;
  if (destination === undefined || destination !== ctx.desired.destination || (r && r.destination === destination)) return r;
  if (!o.ok && o.aborted) return r;
  if (!o.ok) {
    // Unreadable: treated as unknown; an update then fails at the backup step and says why.
    return { ...freshRecord(destination, null, ctx.input.rollbackSeq), last: ctx.last('failed', `cannot read ${destination}: ${o.error}`, null) };
  }
  const digest = o.step === 'inspect' ? o.digest : null;
  return freshRecord(destination, digest ? { checksum: digest, digest } : null, ctx.input.rollbackSeq);
}

function judgeFailure(ctx: PlanContext, r: OtaRecord, step: StepName, error: string, permanent: boolean, backupCommitted: boolean): OtaRecord {
  switch (step) {
    case 'download':
      return failAttempt(ctx, r, `download failed: ${error}`);
    case 'verify':
      return failAttempt(ctx, r, `verify failed: ${error}`);
    case 'extract':
      return permanent ? giveUp(ctx, r, `archive refused: ${error}`) : failAttempt(ctx, r, `extract failed: ${error}`);
    case 'backup':
      return failAttempt(ctx, r, `backup failed: ${error}`);
    case 'swap':
      // The rename is atomic: the destination is unchanged, though the backup may have moved on.
      return failAttempt(ctx, backupCommitted ? { ...r, backup: r.backup_next } : r, `swap failed: ${error}`);
    case 'rollback':
      return rollbackFailed(ctx, r, error);
    case 'signal':
      return fail(ctx, r, `signal failed: ${error}`);
    case 'inspect':
      return r;
  }
}

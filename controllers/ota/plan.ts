import { abandoned, cancelToIdle, planIdle, planRetryWait } from './plan-attempts.js';
import { PlanContext } from './plan-context.js';
import { judgeOutcome, STEP_OF } from './plan-outcome.js';
import { planRestarting, planValidating } from './plan-restart.js';
import type { OtaInput, OtaPlan, StepName } from './plan-types.js';
import { short, type OtaRecord } from './record.js';
import type { OtaPhase } from '../../state/ota.js';

/** Phases a newer checksum (or a rollback request) may abandon: nothing but temp files exists yet. */
const CANCELLABLE: ReadonlySet<OtaPhase> = new Set(['downloading', 'verifying', 'extracting', 'backing_up', 'retry_wait']);
/** Steps that are aborted rather than waited for. */
const ABORTABLE: ReadonlySet<StepName> = new Set(['inspect', 'download', 'verify', 'extract']);

/**
 * Decides the OTA controller's next step for one program. Pure: no I/O, no clock reads.
 * A step in flight is waited for (or aborted); a finished step is judged; then the record is
 * compared with the desired artifact and the observed process. The returned record is persisted
 * before any effect is carried out, so a daemon killed at any instant resumes from it.
 */
export function planOta(input: OtaInput): OtaPlan {
  const ctx = new PlanContext(input);
  if (input.running) return planWhileRunning(ctx);
  let r = input.record;
  if (!input.desired || !input.program) {
    // The program or its artifact is gone: forget the record and its temporary files.
    if (!r) return ctx.result(null);
    if (input.program && CANCELLABLE.has(r.phase)) abandoned(ctx, r, 'the artifact was removed');
    ctx.cleanup(r.destination);
    return ctx.result(null);
  }
  if (input.outcome) r = judgeOutcome(ctx, r, input.outcome);
  if (!r || (r.destination !== input.desired.destination && (CANCELLABLE.has(r.phase) || r.phase === 'idle'))) {
    // A destination seen for the first time: what is there decides whether to install.
    if (r && CANCELLABLE.has(r.phase)) {
      abandoned(ctx, r, `the destination changed to ${input.desired.destination}`);
      ctx.cleanup(r.destination);
    }
    ctx.step({ kind: 'step', step: 'inspect' });
    return ctx.result(r);
  }
  if (input.rollbackSeq > r.rollback_seq) r = requestRollback(ctx, r);
  const before = r.phase;
  r = advance(ctx, r);
  if (r.phase === 'idle' && before !== 'idle') r = planIdle(ctx, r);
  if (r.restart && input.observed.pid !== r.restart.pid) r = { ...r, restart: null }; // honoured, or the process is gone
  const step = STEP_OF[r.phase];
  if (step) ctx.step({ kind: 'step', step });
  return ctx.result(r);
}

/** A step is in flight: wait for it, or abort it when what it works for is no longer wanted. */
function planWhileRunning(ctx: PlanContext): OtaPlan {
  const { input } = ctx;
  const r = input.record;
  const d = input.desired;
  const unwanted =
    !d ||
    !input.program ||
    (r !== null && CANCELLABLE.has(r.phase) && (r.target !== d.checksum || r.destination !== d.destination || input.rollbackSeq > r.rollback_seq));
  if (unwanted && ABORTABLE.has(input.running!)) ctx.effects.push({ kind: 'cancel' });
  return ctx.result(r);
}

function advance(ctx: PlanContext, r: OtaRecord): OtaRecord {
  switch (r.phase) {
    case 'idle':
      return planIdle(ctx, r);
    case 'retry_wait':
      return planRetryWait(ctx, r);
    case 'downloading':
    case 'verifying':
    case 'extracting':
    case 'backing_up':
      // A newer desired checksum abandons this one (its step is taken again otherwise: resume).
      return r.target === ctx.desired.checksum ? r : planIdle(ctx, cancelToIdle(ctx, r, `superseded by ${short(ctx.desired.checksum)}`));
    case 'swapping':
    case 'rolling_back':
      return r; // always finished: the destination must be of a known version
    case 'restarting':
      return planRestarting(ctx, r);
    case 'validating':
      return planValidating(ctx, r);
    default: {
      const never: never = r.phase;
      throw new TypeError(`unknown OTA phase ${String(never)}`);
    }
  }
}

/** `svc ota rollback`: restore the backup now (abandoning an update in progress). */
function requestRollback(ctx: PlanContext, r: OtaRecord): OtaRecord {
  if (r.phase === 'swapping') return r; // handled once the swap is done
  const handled = { ...r, rollback_seq: ctx.input.rollbackSeq };
  const reject = ctx.desired.checksum;
  switch (r.phase) {
    case 'rolling_back':
      return handled;
    case 'restarting':
    case 'validating':
      return { ...handled, phase: 'rolling_back', rollback_reason: 'rollback requested', rejected: reject, validating: null, deadline: null, restart: null };
    default: {
      const idle = CANCELLABLE.has(r.phase) ? cancelToIdle(ctx, handled, 'rollback requested') : handled;
      if (!idle.backup || idle.backup.digest === idle.installed?.digest) {
        const reason = 'rollback requested, but there is no backup to restore';
        ctx.event('ota_failed', reason);
        return { ...idle, rejected: CANCELLABLE.has(r.phase) ? r.target : idle.rejected, last: ctx.last('failed', reason, null) };
      }
      return { ...idle, phase: 'rolling_back', rollback_reason: 'rollback requested', rejected: reject };
    }
  }
}

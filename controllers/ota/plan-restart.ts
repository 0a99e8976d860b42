import { isLive, PLANNED_EXITS, secs, type PlanContext } from './plan-context.js';
import { short, type OtaRecord } from './record.js';

/** SWAPPING -> RESTARTING (or IDLE when nothing is validated): the new binary is in place. */
export function afterSwap(ctx: PlanContext, r: OtaRecord): OtaRecord {
  const { desired: d, program: p, observed: o, now } = ctx;
  const installed = { checksum: r.target!, digest: r.staged! };
  const backup = r.backup_next;
  const live = isLive(o);
  const swapPid = live ? o.pid : null;
  let next: OtaRecord = { ...r, installed, backup, backup_next: null, staged: null, attempts: 0, next_attempt_at: null, swapped_at: now, swap_pid: swapPid, validating: null, deadline: null };
  const kept = backup ? `; the previous binary (${short(backup.checksum)}) is kept as ${d.destination}.svc-backup` : '';
  ctx.event('ota_swapped', `installed ${short(installed.checksum)} at ${d.destination}${kept}`);
  if (p.cron) return done(ctx, next, 'installed; the next cron run uses it');
  if (d.verifyTimeoutMs === 0) {
    if (live && d.policy.kind === 'immediate') next = { ...next, restart: { pid: o.pid!, reason: `ota: new binary ${short(installed.checksum)}` } };
    if (live && d.policy.kind === 'signal') ctx.effects.push({ kind: 'signal', pid: o.pid!, signal: d.policy.signal });
    return done(ctx, next, 'installed without validation (verify_timeout = 0)');
  }
  next = { ...next, phase: 'restarting' };
  if (live && d.policy.kind === 'immediate') {
    // Bounded: the old process must stop (stopsecs) and the new one start.
    next = { ...next, restart: { pid: o.pid!, reason: `ota: new binary ${short(installed.checksum)}` }, deadline: now + p.stopsecsMs + d.verifyTimeoutMs };
  }
  return next; // the restart itself is planned against the observed process (planRestarting)
}

/** RESTARTING: waits for the first process started from the new binary (or signals the live one). */
export function planRestarting(ctx: PlanContext, r: OtaRecord): OtaRecord {
  const { desired: d, observed: o, now, input } = ctx;
  const swappedAt = r.swapped_at ?? 0;
  if (isLive(o) && o.started_at !== null && o.started_at >= swappedAt && o.pid !== r.swap_pid) {
    // RESTARTING -> VALIDATING
    const validating = { pid: o.pid!, since: o.started_at };
    return planValidating(ctx, { ...r, phase: 'validating', validating, deadline: o.started_at + d.verifyTimeoutMs, restart: null });
  }
  const exit = o.last_exit;
  if (exit && exit.at >= swappedAt && !PLANNED_EXITS.has(exit.reason) && (o.status === 'Backoff' || o.status === 'Fatal' || o.status === 'Exited')) {
    return fail(ctx, r, `the new binary failed to start: ${exit.msg}`);
  }
  if (d.policy.kind === 'signal' && isLive(o) && o.pid === r.swap_pid) {
    ctx.step({ kind: 'step', step: 'signal', pid: o.pid!, signal: d.policy.signal });
    return r;
  }
  if (!input.runWanted) return { ...r, restart: null, deadline: null }; // stopped by request: validated at its next start
  if (r.restart === null && r.target !== d.checksum) {
    // Waiting for a manual restart: a newer checksum supersedes this one.
    return done(ctx, r, `installed; superseded by ${short(d.checksum)} before a process ran it`);
  }
  if (r.deadline !== null) {
    if (now >= r.deadline) return fail(ctx, r, `no process started from the new binary within ${secs(r.deadline - swappedAt)}`);
    ctx.wakeAt(r.deadline);
  }
  return r;
}

/** VALIDATING: the new binary must reach Healthy (with a health check) or stay up for startsecs. */
export function planValidating(ctx: PlanContext, r: OtaRecord): OtaRecord {
  const { desired: d, program: p, observed: o, now, input } = ctx;
  const v = r.validating!;
  // After a daemon restart the window starts afresh: probes restart with the daemon.
  if (input.resumed) r = { ...r, deadline: Math.max(r.deadline ?? 0, now + d.verifyTimeoutMs) };
  if (o.pid !== v.pid) {
    const planned = input.resumed || (o.last_exit !== null && PLANNED_EXITS.has(o.last_exit.reason));
    // A stop or restart by request (or by a daemon restart) validates the next process instead.
    if (planned) return planRestarting(ctx, { ...r, phase: 'restarting', validating: null, deadline: null });
    return fail(ctx, r, `the new binary exited during validation: ${o.last_exit?.msg ?? 'the process is gone'}`);
  }
  if (o.status === 'Unhealthy') return fail(ctx, r, `health check failing: ${o.health_last?.message ?? 'unhealthy'}`);
  const after = d.policy.kind === 'signal' ? 'the signal' : 'start';
  if (p.healthCheck) {
    // A probe that ended in the same millisecond may have started before the restart or signal.
    const probedSince = o.health_last !== null && o.health_last.ok && o.health_last.at > v.since;
    if (o.status === 'Healthy' && probedSince) return done(ctx, r, `validated: Healthy ${secs(now - v.since)} after ${after}`);
  } else {
    const upAt = (o.started_at ?? v.since) + p.startsecsMs;
    if (isLive(o) && now >= upAt) return done(ctx, r, `validated: up for startsecs (${secs(p.startsecsMs)})`);
    ctx.wakeAt(upAt);
  }
  const deadline = r.deadline ?? now;
  if (now >= deadline) {
    const what = p.healthCheck ? 'not Healthy' : `not up for startsecs (${secs(p.startsecsMs)})`;
    return fail(ctx, r, `${what} within verify_timeout (${secs(d.verifyTimeoutMs)}) after ${after}`);
  }
  ctx.wakeAt(deadline);
  return r;
}

/** The new binary failed after the swap: ROLLING_BACK, or IDLE (failed) when there is no backup. */
export function fail(ctx: PlanContext, r: OtaRecord, reason: string): OtaRecord {
  const cleared = { ...r, validating: null, deadline: null, restart: null, rejected: r.target };
  if (r.backup) {
    ctx.event('ota_failed', `${reason}; rolling back to ${short(r.backup.checksum)}`);
    return { ...cleared, phase: 'rolling_back', rollback_reason: reason };
  }
  const text = `${reason}; nothing to roll back to (the destination did not exist before)`;
  ctx.event('ota_failed', text);
  return { ...cleared, phase: 'idle', target: null, last: ctx.last('failed', text, r.target) };
}

/** ROLLING_BACK -> IDLE: the backup is the destination again; the process running the removed binary restarts. */
export function afterRollback(ctx: PlanContext, r: OtaRecord): OtaRecord {
  const { desired: d, observed: o, now } = ctx;
  const restored = r.backup!;
  // With a signal policy the live process loaded the removed binary whatever its start time.
  const startedAfterSwap = o.pid !== r.swap_pid && (o.started_at ?? 0) >= (r.swapped_at ?? 0);
  const runsRemoved = isLive(o) && (d.policy.kind === 'signal' || startedAfterSwap);
  const reason = `${r.rollback_reason ?? 'rollback'}; restored ${short(restored.checksum)}${runsRemoved ? ' and restarted the program' : ''}`;
  ctx.event('ota_rolled_back', reason);
  return {
    ...r,
    phase: 'idle',
    installed: restored,
    backup: null,
    target: null,
    // A live process that never ran the removed binary runs the restored one: nothing predates it.
    swapped_at: runsRemoved ? now : null,
    swap_pid: runsRemoved ? o.pid : null,
    validating: null,
    deadline: null,
    rollback_reason: null,
    restart: runsRemoved ? { pid: o.pid!, reason: 'ota: rollback' } : null,
    last: ctx.last('rolled_back', reason, r.rejected),
  };
}

/** ROLLING_BACK -> IDLE (failed): the destination keeps the new binary. */
export function rollbackFailed(ctx: PlanContext, r: OtaRecord, error: string): OtaRecord {
  const text = `rollback failed: ${error}; ${r.destination} keeps ${short(r.installed?.checksum)}`;
  ctx.event('ota_failed', text);
  return { ...r, phase: 'idle', target: null, rollback_reason: null, last: ctx.last('failed', text, r.installed?.checksum ?? null) };
}

/** -> IDLE (applied). */
export function done(ctx: PlanContext, r: OtaRecord, reason: string): OtaRecord {
  const checksum = r.installed?.checksum ?? null;
  ctx.event('ota_applied', `${short(checksum)} ${reason}`);
  return { ...r, phase: 'idle', target: null, validating: null, deadline: null, attempts: 0, last: ctx.last('applied', reason, checksum) };
}

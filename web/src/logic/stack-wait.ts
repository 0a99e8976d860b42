/**
 * Applying a stack and waiting until its programs are ready (`PUT /api/v1/stack?wait=SECS`,
 * docs/stacks.md, "Waiting until the stack is up"): the timeouts the page offers and how the
 * outcome reads.
 */
import { DEFAULT_WAIT_SECS as CLI_DEFAULT_WAIT_SECS, type WaitResult } from '../../../state/readiness.js';
import { ApiError } from '../api/http.js';
import type { Plan } from './plan.js';

export type { WaitResult };

/**
 * The longest wait offered. svcd holds the answer for the whole wait and the page's fetch sets no
 * time limit, but a browser or a proxy in front of svcd may give up on an answer that takes
 * minutes (Firefox after 300 s): past that the outcome would be lost, though the apply is done.
 */
export const WAIT_CHOICES_SECS = [30, 60, 120, 240] as const;
export type WaitSecs = (typeof WAIT_CHOICES_SECS)[number];
/** The default, as `svc apply --wait` has (one of the choices, or this does not compile). */
export const DEFAULT_WAIT_SECS: WaitSecs = CLI_DEFAULT_WAIT_SECS;

/** `30 s`, `1 min`, `4 min`. */
export function waitLabel(secs: number): string {
  return secs % 60 === 0 ? `${secs / 60} min` : `${secs} s`;
}

/** The programs an apply of this plan leaves in the stack (what the wait is for): all but the pruned. */
export function stackPrograms(plan: Plan): number {
  return plan.groups.created.length + plan.groups.updated.length + plan.groups.unchanged.length;
}

/** `waiting up to 1 min for 4 programs to be ready…` */
export function waitingLine(programs: number, secs: number): string {
  return `waiting up to ${waitLabel(secs)} for ${programs} program${programs === 1 ? '' : 's'} to be ready…`;
}

/**
 * One line for the outcome: `all 2 programs ready in 1.3 s`, `web-api failed (Fatal) after 0.8 s;
 * 1 ready`, `not ready after 60 s: w-loop (Backoff); 1 ready`.
 */
export function waitSummary(wait: WaitResult): string {
  const secs = `${formatSecs(wait.secs)}`;
  const extra = [wait.ready.length && !wait.ok ? `${wait.ready.length} ready` : '', wait.pending.length ? `${wait.pending.length} not judged` : '', wait.skipped.length ? `${wait.skipped.length} skipped` : ''].filter(Boolean);
  const tail = extra.length ? `; ${extra.join(', ')}` : '';
  const names = wait.failed.map((f) => `${f.name} (${f.status})`).join(', ');
  if (wait.ok) {
    const n = wait.ready.length;
    return n === 0 ? `nothing to wait for${tail}` : `${n === 1 ? 'the program is' : `all ${n} programs are`} ready, after ${secs}${tail}`;
  }
  if (wait.timed_out) return `not ready after ${secs}: ${names}${tail}`;
  return `${names} failed, after ${secs}${tail}`;
}

/** `1 s`, `1.3 s`, `0.25 s`. */
export function formatSecs(secs: number): string {
  return `${Number(secs.toFixed(secs < 1 ? 2 : 1))} s`;
}

/**
 * An apply that waits is written before the wait begins: when its answer is lost on the way
 * (svcd unreachable, a proxy's 502 or 504 at its time limit), the message says the apply may
 * well be done. svcd's own answers (400, 409, 503 before applying) are left as they are.
 */
export function lostWait(err: unknown): unknown {
  if (!(err instanceof ApiError) || ![0, 502, 504].includes(err.status)) return err;
  return new ApiError(err.status, `${err.message}: no answer came while waiting for the programs, but the apply may have been done (see Programs)`);
}

import type { ObservedProgram, ObservedRegistry } from '../state/observed.js';
import { withDefaults, type ProgramRecord } from '../state/program.js';
import type { ReloadView } from '../state/reload.js';
import type { ProgramStore } from '../state/store.js';
import type { ActionOutcome } from './actions.js';

/** How long a reload request waits for the controller to act on it (start the successor, or restart). */
const ACT_WAIT_MS = 10_000;
/** Slack beyond the successor's bound and stopsecs before the answer says "still pending". */
const GRACE_MS = 5000;

/**
 * `svc reload` (docs/reload.md): one intent write (`reload_seq`, run = running) for every target;
 * the process controller starts a successor beside each live process with a health check and
 * hands over once it is Healthy, or restarts programs without one. The answer waits (bounded)
 * for the outcome the controller records (`last_reload`): ok with a note, or the failure.
 */
export async function reloadPrograms(store: ProgramStore, observed: ObservedRegistry, records: ProgramRecord[]): Promise<ActionOutcome[]> {
  const ordered = [...records].sort((a, b) => withDefaults(a.config).priority - withDefaults(b.config).priority);
  // A reload already under way (an earlier request) ends before this one starts its new process.
  const ahead = new Map(ordered.map((r) => [r.id, observed.get(r.id).reload ?? null]));
  const written = await store.setIntents(ordered.map((r) => r.id), (i) => ({ ...i, run: 'running', reload_seq: (i.reload_seq ?? 0) + 1, force: false }));
  return Promise.all(written.map((r) => waitReload(observed, r, ahead.get(r.id) ?? null)));
}

async function waitReload(observed: ObservedRegistry, r: ProgramRecord, ahead: ReloadView | null): Promise<ActionOutcome> {
  const seq = r.intent.reload_seq ?? 0;
  const stopMs = withDefaults(r.config).stopsecs * 1000;
  // The reload ahead: at most the rest of its successor's bound, then its second process's stop window.
  const aheadMs = ahead ? (ahead.phase === 'successor' ? ahead.timeout_ms : 0) + stopMs : 0;
  const answered = (o: ObservedProgram | null) => o === null || (o.last_reload?.seq ?? 0) >= seq;
  // Done: the outcome is recorded, no second process of this reload is left (one of a later request may run), and a restart or start has settled.
  const ours = (o: ObservedProgram) => o.reload != null && (o.applied_reload_seq ?? 0) <= seq;
  const done = (o: ObservedProgram | null) => o === null || (answered(o) && !ours(o) && o.status !== 'Starting' && o.status !== 'Stopping');
  let waited = aheadMs + ACT_WAIT_MS + stopMs;
  let seen = await observed.waitFor(r.id, (o) => done(o) || (o?.reload?.phase === 'successor' && (o.applied_reload_seq ?? 0) >= seq), waited);
  if (seen && !done(seen)) {
    // A successor runs: its bound, then the old (or failed) process's stop window.
    let allowed = seen.reload?.timeout_ms ?? 0;
    const more = allowed + stopMs + GRACE_MS;
    seen = await observed.waitFor(r.id, done, more);
    waited += more;
    // A check changed during the reload moved its bound (docs/reload.md): the rest of it too.
    while (seen && !done(seen) && seen.reload?.phase === 'successor' && seen.reload.timeout_ms > allowed) {
      const longer = seen.reload.timeout_ms - allowed;
      allowed = seen.reload.timeout_ms;
      seen = await observed.waitFor(r.id, done, longer);
      waited += longer;
    }
  }
  const outcome: ActionOutcome = { id: r.id, name: r.config.name, ok: true, status: seen?.status ?? 'Removed', pid: seen?.pid ?? null };
  const last = seen?.last_reload?.seq === seq ? seen.last_reload : null;
  // Removed meanwhile (svc rm): the reload was cancelled, and nothing runs any more.
  if (seen === null) Object.assign(outcome, { ok: false, error: 'reload failed: cancelled by remove; the program was removed before its reload ended' });
  else if (!done(seen)) outcome.error = `still ${seen.reload ? `reloading (${seen.reload.phase} pid ${seen.reload.pid})` : seen.status} after ${Math.round(waited / 1000)} s; the controller keeps trying`;
  else if (last?.result === 'failed') Object.assign(outcome, { ok: false, error: last.msg });
  else if (last) outcome.note = last.msg;
  return outcome;
}

import type { EventInput } from '../../state/events/types.js';
import type { HealthView, ProbeResult } from '../../state/observed.js';
import type { HealthVerdictRecord } from '../../state/health-verdicts.js';
import type { HealthCheck } from '../../state/program.js';

/** Documented defaults of a health check (docs/health.md). */
export const HEALTH_DEFAULTS = {
  enabled: true,
  host: '127.0.0.1',
  interval_secs: 10,
  timeout_secs: 5,
  failure_threshold: 3,
  success_threshold: 1,
  start_period_secs: 0,
  restart_on_failure: false,
} as const;

/** Until the first verdict, probe at least this often so dependants start promptly. */
export const FIRST_VERDICT_INTERVAL_MS = 1000;
const RECENT = 10;

export type EffectiveCheck = HealthCheck & Required<Pick<HealthCheck, keyof typeof HEALTH_DEFAULTS>>;

/**
 * Probes run at most this often, whatever `interval_secs` says: the schema takes any positive
 * number (stored programs must keep validating), and 0.001 would fork an exec probe every
 * millisecond.
 */
export const MIN_INTERVAL_SECS = 0.1;

export function effectiveCheck(check: HealthCheck | undefined): EffectiveCheck | null {
  if (!check) return null;
  const merged = { ...HEALTH_DEFAULTS, ...check } as EffectiveCheck;
  merged.interval_secs = Math.max(MIN_INTERVAL_SECS, merged.interval_secs);
  return merged.enabled ? merged : null;
}

/**
 * What identifies a check's settings, whatever the order of its stored fields: a state scheduled
 * for another key belongs to a check that has since been changed.
 */
export function checkKey(check: EffectiveCheck): string {
  return JSON.stringify(check, Object.keys(check).sort());
}

/** The health controller's memory for one program's current process. */
export interface HealthState {
  pid: number;
  startedAt: number;
  /** checkKey of the check this state was planned with (a probe in flight runs that check). */
  check: string;
  probing: boolean;
  nextProbeAt: number;
  /** A finished probe not yet judged. */
  pending: ProbeResult | null;
  restartRequested: boolean;
  /** A probe of this process has passed: start_period's grace is over. */
  passed: boolean;
  view: HealthView;
}

export type HealthEffect = { kind: 'probe' } | { kind: 'restart' } | { kind: 'event'; event: EventInput };

export interface HealthPlan {
  next: HealthState | null;
  effects: HealthEffect[];
  requeueAt?: number;
}

export interface HealthInput {
  id: string;
  name: string;
  check: EffectiveCheck | null;
  /** The live process, or null when none is running (or it is stopping). */
  alive: { pid: number; startedAt: number } | null;
  state: HealthState | undefined;
  now: number;
}

/**
 * Judges probe results against the thresholds and decides when to probe next. Pure.
 * Failures inside start_period do not count until the first success (Docker's semantics).
 */
export function planHealth(input: HealthInput): HealthPlan {
  const { check, alive, now } = input;
  if (!check || !alive) return { next: null, effects: [] };
  const key = checkKey(check);
  let s = input.state && input.state.pid === alive.pid ? input.state : fresh(alive, now, key);
  // A changed check applies at once: a result of the old one is dropped (as is the one in flight,
  // when it lands), the counts start over and the new check probes now (the verdict stays until
  // it speaks). Otherwise a new interval, URL or port waited for the probe the old interval had
  // planned, up to interval_secs away.
  if (s.check !== key) s = { ...s, check: key, probing: false, pending: null, nextProbeAt: now, view: { ...s.view, failures: 0, successes: 0 } };
  const effects: HealthEffect[] = [];
  if (s.pending) s = judge(input, check, s, effects);
  if (!s.probing && now >= s.nextProbeAt) {
    effects.push({ kind: 'probe' });
    s = { ...s, probing: true };
  }
  return { next: s, effects, requeueAt: s.probing ? undefined : s.nextProbeAt };
}

function fresh(alive: { pid: number; startedAt: number }, now: number, check: string): HealthState {
  return {
    pid: alive.pid,
    startedAt: alive.startedAt,
    check,
    probing: false,
    nextProbeAt: now,
    pending: null,
    restartRequested: false,
    passed: false,
    view: { healthy: null, failures: 0, successes: 0, last: null, recent: [] },
  };
}

/**
 * The state of a process re-adopted after a crash of svcd, from the verdict the last svcd wrote:
 * the verdict holds and the counts go on, and it is probed again at once.
 */
export function resumedState(r: HealthVerdictRecord, check: string, now: number): HealthState {
  return {
    pid: r.pid,
    startedAt: r.started_at,
    check,
    probing: false,
    nextProbeAt: now,
    pending: null,
    restartRequested: false,
    passed: r.passed,
    view: { healthy: r.healthy, failures: r.failures, successes: r.successes, last: r.last, recent: r.last ? [r.last] : [] },
  };
}

function judge(input: HealthInput, check: EffectiveCheck, s: HealthState, effects: HealthEffect[]): HealthState {
  const result = s.pending!;
  const view = { ...s.view, last: result, recent: [...s.view.recent, result].slice(-RECENT) };
  let restartRequested = s.restartRequested;
  const event = (e: Omit<EventInput, 'program_id' | 'program_name'>) =>
    effects.push({ kind: 'event', event: { program_id: input.id, program_name: input.name, ...e } });
  if (result.ok) {
    view.successes += 1;
    view.failures = 0;
    if (view.healthy !== true && view.successes >= check.success_threshold) {
      // UNKNOWN|UNHEALTHY -> HEALTHY
      if (view.healthy === false) event({ event: 'process_recovered', msg: `health check passing again: ${result.message}` });
      view.healthy = true;
    }
  } else {
    // Docker's semantics: inside start_period failures do not count until a probe has passed.
    const grace = !s.passed && input.now < s.startedAt + check.start_period_secs * 1000;
    if (!grace) {
      view.failures += 1;
      view.successes = 0;
      if (view.failures >= check.failure_threshold) {
        if (view.healthy !== false) {
          // UNKNOWN|HEALTHY -> UNHEALTHY: recorded, so that notify and reactions can act on it
          view.healthy = false;
          event({ event: 'process_unhealthy', msg: `health check failing (${view.failures} in a row): ${result.message}` });
        }
        // Also when already Unhealthy: restart_on_failure may have been turned on since.
        if (check.restart_on_failure && !restartRequested) {
          restartRequested = true;
          event({ event: 'health_restart', msg: `restarting after ${view.failures} failed health checks: ${result.message}` });
          effects.push({ kind: 'restart' });
        }
      }
    }
  }
  const every = check.interval_secs * 1000;
  const nextProbeAt = input.now + (view.healthy === null ? Math.min(every, FIRST_VERDICT_INTERVAL_MS) : every);
  return { ...s, pending: null, probing: false, nextProbeAt, restartRequested, passed: s.passed || result.ok, view };
}

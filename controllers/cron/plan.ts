import type { EventInput } from '../../state/events/types.js';
import type { EffectiveConfig, Intent } from '../../state/program.js';
import type { ExitInfo, SignalName } from '../os/port.js';
import { describeExit } from '../process/describe-exit.js';
import type { CronMark, CronRun, CronState, Firing, RunStopReason } from './cron-state.js';
import type { Schedule } from './schedule.js';

/** A slot is fired "on time" up to this late (a stall, a quick daemon restart); later it is missed. */
export const LATE_GRACE_MS = 30_000;
/** catchup = all replays at most this many missed slots (the newest ones). */
export const CATCHUP_CAP = 100;
/**
 * A mark this far ahead of the clock means the wall clock was stepped back (a machine booted with
 * a wrong clock, then corrected): the schedule follows the new time, as cron does past 3 hours.
 * A smaller step waits for the clock to pass the mark, so that no slot fires twice.
 */
export const CLOCK_BACK_LIMIT_MS = 3 * 3_600_000;
/** How long after failing to find a next slot the schedule is looked at again (each try can cost cron-parser most of a second). */
export const LOOK_AGAIN_MS = 3_600_000;

export interface CronPlanInput {
  id: string;
  /** The desired config, or undefined when the program was removed or no longer has `cron`. */
  config: EffectiveConfig | undefined;
  intent: Intent | undefined;
  /** The compiled `cron` of the config (null when absent or unusable). */
  schedule: Schedule | null;
  state: CronState;
  /** Exits of runs reported by the OS since the last pass. */
  exits: { pid: number; exit: ExitInfo }[];
  now: number;
  /** In [0, 1): the jitter of a slot that becomes due in this pass. */
  random: number;
  /** The program is still stored, without `cron` (its schedule was removed, not the program). */
  unscheduled?: boolean;
  /** What its depends_on leaves the program waiting for (`waiting for db (Stopped)`), or null. */
  blockedBy?: string | null;
}

export type CronEffect =
  | { kind: 'spawn'; firing: Firing }
  | { kind: 'signal'; pid: number; signal: SignalName }
  | { kind: 'event'; event: EventInput }
  | { kind: 'mark'; mark: CronMark | null }
  | { kind: 'forget' };

export interface CronPlan {
  next: CronState;
  effects: CronEffect[];
  /** Reconcile again at this time (Unix ms): the next firing or a kill deadline. */
  wakeAt: number | null;
}

/**
 * Decides what the cron controller does for one program. Pure: no I/O, no clock reads.
 * Exits are judged first, then deadlines (SIGKILL after stopsecs, kill_after_secs), then the
 * schedule is compared with intent: paused (stop runs) or active (fire due slots by policy).
 */
export function planCron(input: CronPlanInput): CronPlan {
  const effects: CronEffect[] = [];
  let s = judgeExits(input, input.state, effects);
  s = enforceDeadlines(input, s, effects);
  const { config, intent } = input;
  if (!config?.cron || !intent) return planGone(input, s, effects);
  if (intent.run === 'stopped' || s.shutdown) return planPaused(input, config, intent, s, effects);
  return planActive(input, config, intent, s, effects);
}

/** Records each ended run: a cron_exit event and the last result. */
function judgeExits(input: CronPlanInput, s: CronState, effects: CronEffect[]): CronState {
  let runs = s.runs;
  let lastRun = s.lastRun;
  for (const { pid, exit } of input.exits) {
    const run = runs.find((r) => r.pid === pid);
    if (!run) continue;
    runs = runs.filter((r) => r !== run);
    // An exit kept while svcd was down ended then, not when the next svcd read it.
    const durationSecs = Math.max(0, Math.min(input.now, exit.endedAt ?? input.now) - run.startedAt) / 1000;
    const ok = exit.code !== null && (input.config?.exitcodes ?? [0]).includes(exit.code);
    // A re-adopted run is not the daemon's child: how it ended cannot be known, so it did not fail.
    const unknown = run.adopted === true && exit.code === null && exit.signal === null && !exit.error;
    const reason = run.stopping?.reason ?? (ok ? 'ok' : unknown ? 'unknown' : 'failed');
    const msg = `run pid ${pid} (slot ${iso(run.slot)}) ${describeExit(exit, REASON_WORDS[reason](input, run), run.adopted === true)} after ${durationSecs.toFixed(1)} s`;
    lastRun = { slot: run.slot, started_at: run.startedAt, exit_code: exit.code, signal: exit.signal, duration_secs: durationSecs, reason, msg };
    effects.push(event(input, { event: 'cron_exit', exit_code: exit.code, signal: exit.signal, duration_secs: durationSecs, msg }));
  }
  return runs === s.runs ? s : { ...s, runs, lastRun };
}

const REASON_WORDS: Record<RunStopReason | 'ok' | 'failed' | 'unknown', (input: CronPlanInput, run: CronRun) => string> = {
  ok: () => 'exited',
  failed: () => 'failed',
  unknown: () => 'ended',
  stop: () => 'stopped on request',
  remove: (input) => (input.unscheduled ? 'stopped because its cron schedule was removed' : 'stopped because the program was removed'),
  shutdown: () => 'stopped by daemon shutdown',
  overlap: () => 'killed by on_overlap = kill (a newer firing started)',
  kill_after: (input, run) => `killed for exceeding kill_after_secs (${input.config?.kill_after_secs ?? (run.killAt! - run.startedAt) / 1000} s)`,
};

/** STOPPING runs get SIGKILL at their deadline; runs past kill_after_secs are stopped. */
function enforceDeadlines(input: CronPlanInput, s: CronState, effects: CronEffect[]): CronState {
  const { now } = input;
  const runs = s.runs.map((run) => {
    if (run.stopping && !run.stopping.killed && now >= run.stopping.deadline) {
      effects.push({ kind: 'signal', pid: run.pid, signal: 'SIGKILL' });
      return { ...run, stopping: { ...run.stopping, killed: true } };
    }
    if (!run.stopping && run.killAt !== null && now >= run.killAt) return stopRun(run, 'kill_after', false, now, effects);
    return run;
  });
  return { ...s, runs };
}

/** SIGTERM (SIGKILL when forced or stopsecs = 0) to the run's process group. */
function stopRun(run: CronRun, reason: RunStopReason, force: boolean, now: number, effects: CronEffect[]): CronRun {
  const kill = force || run.stopsecs === 0;
  effects.push({ kind: 'signal', pid: run.pid, signal: kill ? 'SIGKILL' : 'SIGTERM' });
  return { ...run, stopping: { reason, deadline: now + run.stopsecs * 1000, killed: kill } };
}

/** Removed (or no longer a cron program): stop the runs, then forget everything. */
function planGone(input: CronPlanInput, s: CronState, effects: CronEffect[]): CronPlan {
  const runs = s.runs.map((r) => (r.stopping ? r : stopRun(r, 'remove', false, input.now, effects)));
  const next: CronState = { ...s, runs, queue: [], pending: null, active: false };
  if (runs.length === 0) effects.push({ kind: 'mark', mark: null }, { kind: 'forget' });
  return { next, effects, wakeAt: deadlines(runs) };
}

/** PAUSED (intent stopped, or daemon shutdown): stop the runs, drop the queue, fire nothing. */
function planPaused(input: CronPlanInput, config: EffectiveConfig, intent: Intent, s: CronState, effects: CronEffect[]): CronPlan {
  const { now } = input;
  const reason: RunStopReason = intent.run === 'stopped' ? 'stop' : 'shutdown';
  const force = reason === 'stop' && intent.force;
  const runs = s.runs.map((r) => {
    if (!r.stopping) return stopRun(r, reason, force, now, effects);
    if (force && !r.stopping.killed) {
      effects.push({ kind: 'signal', pid: r.pid, signal: 'SIGKILL' });
      return { ...r, stopping: { ...r.stopping, killed: true } };
    }
    return r;
  });
  // A user pause is durable: slots while paused are not missed. A shutdown keeps the mark, so the
  // downtime is caught up by policy at the next start.
  if (reason === 'stop' && s.active !== false) effects.push({ kind: 'mark', mark: { last_fire_at: Math.max(s.lastFire ?? now, now), paused: true } });
  // A pause drops queued firings (the mark counts them as handled): said, so that none vanishes
  // unseen. A shutdown keeps them in the mark: they start first when svcd is back.
  if (reason === 'stop' && s.queue.length > 0) {
    const [first, last] = [s.queue[0].slot, s.queue[s.queue.length - 1].slot];
    const which = s.queue.length === 1 ? `queued firing for slot ${iso(first)}` : `${s.queue.length} queued firings, slots ${iso(first)} to ${iso(last)},`;
    effects.push(event(input, { event: 'cron_skipped', msg: `${which} dropped: the schedule was paused (stop)` }));
  }
  const queue = reason === 'stop' ? [] : s.queue;
  const next: CronState = { ...s, runs, queue, pending: null, active: false, scheduleKey: input.schedule?.key ?? s.scheduleKey };
  return { next, effects, wakeAt: deadlines(runs) };
}

function planActive(input: CronPlanInput, config: EffectiveConfig, intent: Intent, s: CronState, effects: CronEffect[]): CronPlan {
  const { now, schedule } = input;
  let lastFire = s.lastFire;
  let pending = s.pending;
  let marked = false;
  // PAUSED -> ACTIVE, a first pass without a durable mark, or a mark from before the clock was
  // stepped back by more than CLOCK_BACK_LIMIT_MS: start from now, nothing to catch up.
  const steppedBack = lastFire !== null && lastFire - now > CLOCK_BACK_LIMIT_MS;
  if (s.active === false || lastFire === null || steppedBack) {
    lastFire = steppedBack ? now : Math.max(lastFire ?? now, now);
    pending = null;
    marked = true;
  }
  // A new expression or zone starts afresh: the old schedule's missed slots mean nothing.
  if (s.scheduleKey !== null && s.scheduleKey !== (schedule?.key ?? null)) {
    lastFire = Math.max(lastFire, now);
    pending = null;
    marked = true;
  }
  const firings: Firing[] = [];
  let appliedRestart = s.appliedRestart;
  if (intent.restart_seq > appliedRestart) {
    firings.push({ slot: now, trigger: 'manual' }); // a restart request: one run now
    appliedRestart = intent.restart_seq;
  }
  if (schedule) {
    const listed = schedule.slotsDesc(lastFire, now, CATCHUP_CAP + 2);
    const due = withAwaited(listed, pending, lastFire, now);
    if (due.length > 0) {
      const newest = due[0];
      // Lateness counts from the firing time once its jitter is drawn, so a long jitter wait
      // interrupted by another pass (an exit, an update) does not turn the slot into a missed one.
      const drawn = pending?.slot === newest ? pending.at : null;
      const onTime = now - (drawn ?? newest) <= LATE_GRACE_MS;
      const missed = onTime ? due.slice(1) : due; // newest first
      firings.push(...catchUp(config.catchup, missed, onTime));
      // Slots not run are said (svc events JOB --type cron_skipped): "why did the 03:00 run not happen?"
      const truncated = listed.length >= CATCHUP_CAP + 2; // there may be older ones than those listed
      const notRun = missedNotRun(input, config.catchup, missed, truncated ? schedule.next(lastFire) : null);
      if (notRun) effects.push(notRun);
      if (missed.length > 0) {
        lastFire = missed[0];
        marked = true;
      }
      if (onTime) {
        // The jitter of a slot is drawn once, when it becomes due, and kept until it fires. It
        // ends before the next slot: a longer wait would see that slot come due first, replace
        // this one, draw again, and a job whose jitter_sec passes its interval would never run.
        const at = drawn ?? newest + jitterMs(config, input.random, newest, schedule.next(newest));
        if (now >= at) {
          firings.push({ slot: newest, trigger: 'schedule' });
          lastFire = newest;
          marked = true;
          pending = null;
        } else {
          pending = { slot: newest, at };
        }
      } else {
        pending = null;
      }
    }
  }
  const admitted = admit(input, config, { ...s, lastFire }, firings, effects);
  if (pending === null || pending.slot <= lastFire) {
    const slot = schedule?.next(Math.max(lastFire, now)) ?? null;
    pending = slot === null ? null : { slot, at: null };
  }
  // The queue and a drawn jitter are part of the mark, so that a restart of svcd (a crash too)
  // loses neither.
  const jitter = pending && pending.at !== null && pending.at > pending.slot ? { slot: pending.slot, at: pending.at } : null;
  const jitterDrawn = jitter !== null && (s.pending?.slot !== jitter.slot || s.pending.at !== jitter.at);
  if (marked || jitterDrawn || !sameFirings(s.queue, admitted.queue)) {
    effects.push({ kind: 'mark', mark: { last_fire_at: lastFire, paused: false, ...(admitted.queue.length > 0 ? { queued: admitted.queue } : {}), ...(jitter ? { jitter } : {}) } });
  }
  const next: CronState = {
    ...admitted,
    scheduleKey: schedule?.key ?? null,
    active: true,
    lastFire,
    pending,
    // Without a next slot the job would never be woken again: look again later instead.
    lookAgainAt: schedule && pending === null ? now + LOOK_AGAIN_MS : null,
    appliedStart: intent.start_seq,
    appliedRestart,
  };
  return { next, effects, wakeAt: wakeAtOf(next) };
}

/**
 * The slot the job waited for is due once its time has come, even when listing the slots since
 * the last firing fails (cron-parser gives up from some start times near a DST change of a
 * half-hour zone): without it the pass would wake again at once, for ever.
 */
function withAwaited(dueNewestFirst: number[], pending: CronState['pending'], lastFire: number, now: number): number[] {
  const awaited = pending?.slot;
  if (awaited === undefined || awaited <= lastFire || awaited > now || dueNewestFirst.includes(awaited)) return dueNewestFirst;
  return [...dueNewestFirst, awaited].sort((a, b) => b - a);
}

/**
 * Missed slots by `catchup`: skip = none; latest = one run for the newest missed slot, unless a
 * slot is on time (that run stands for them); all = one per missed slot, the newest CATCHUP_CAP,
 * oldest first. Every firing still goes through the overlap policy.
 */
function catchUp(policy: EffectiveConfig['catchup'], missedNewestFirst: number[], onTime: boolean): Firing[] {
  if (missedNewestFirst.length === 0) return [];
  switch (policy) {
    case 'skip':
      return [];
    case 'latest':
      return onTime ? [] : [{ slot: missedNewestFirst[0], trigger: 'catchup' }];
    case 'all':
      return missedNewestFirst
        .slice(0, CATCHUP_CAP)
        .reverse()
        .map((slot) => ({ slot, trigger: 'catchup' as const }));
    default: {
      const never: never = policy;
      throw new TypeError(`unknown catchup ${String(never)}`);
    }
  }
}

/**
 * The missed slots `catchup` runs nothing for, as one cron_skipped event: all of them with skip,
 * those past the newest CATCHUP_CAP with all. With latest, the one run stands for them all.
 * `oldest` is the first slot after the mark when the listing stopped short of it (it was capped).
 */
function missedNotRun(input: CronPlanInput, policy: EffectiveConfig['catchup'], missedNewestFirst: number[], oldest: number | null): CronEffect | null {
  const notRun = policy === 'skip' ? missedNewestFirst : policy === 'all' ? missedNewestFirst.slice(CATCHUP_CAP) : [];
  if (notRun.length === 0) return null;
  const newest = notRun[0];
  const first = oldest ?? notRun[notRun.length - 1];
  // Capped, the listing does not know how many there are.
  const which = first === newest ? `missed slot ${iso(newest)} not run` : `${oldest === null ? `${notRun.length} ` : ''}missed slots not run, ${iso(first)} to ${iso(newest)}`;
  const why = policy === 'skip' ? 'catchup = skip' : `catchup = all runs the newest ${CATCHUP_CAP}`;
  return event(input, { event: 'cron_skipped', msg: `${which} (${why}): svcd was not running, stalled, or the clock stepped forward` });
}

/**
 * Starts firings while fewer than max_concurrent runs are live (queued firings first, in order);
 * at the limit applies on_overlap: skip drops the firing, queue keeps it up to max_queued (the
 * excess is dropped with queue_full), kill stops the oldest live run and starts the new one.
 * While depends_on is not up, nothing starts: firings wait in the queue (the newest one only,
 * unless on_overlap = queue) and start once the dependencies are up.
 */
function admit(input: CronPlanInput, config: EffectiveConfig, s: CronState, firings: Firing[], effects: CronEffect[]): CronState {
  let runs = s.runs;
  const queue = [...s.queue];
  let { skipped, dropped } = s;
  const spawns: Extract<CronEffect, { kind: 'spawn' }>[] = [];
  const live = () => runs.filter((r) => !r.stopping).length + spawns.length;
  const spawn = (firing: Firing) => {
    const effect = { kind: 'spawn' as const, firing };
    spawns.push(effect);
    effects.push(effect);
  };
  const blocked = input.blockedBy ?? null;
  if (blocked === null) while (queue.length > 0 && live() < config.max_concurrent) spawn({ ...queue.shift()!, trigger: 'queue' });
  for (const firing of firings) {
    if (blocked !== null) {
      if (config.on_overlap === 'queue' && queue.length >= config.max_queued) {
        dropped++;
        effects.push(event(input, { event: 'queue_full', msg: `firing for slot ${iso(firing.slot)} dropped: ${queue.length} already queued (max_queued ${config.max_queued}; ${blocked})` }));
        continue;
      }
      if (config.on_overlap !== 'queue') {
        // One firing waits for the dependencies: a newer one takes its place.
        for (const older of queue.splice(0)) {
          skipped++;
          effects.push(event(input, { event: 'cron_skipped', msg: `firing for slot ${iso(older.slot)}${TRIGGER_WORDS[older.trigger]} skipped: ${blocked}, and the firing for slot ${iso(firing.slot)} waits instead` }));
        }
      }
      queue.push(firing);
      continue;
    }
    if (live() < config.max_concurrent) {
      spawn(firing);
      continue;
    }
    switch (config.on_overlap) {
      case 'skip':
        skipped++;
        effects.push(event(input, { event: 'cron_skipped', msg: `firing for slot ${iso(firing.slot)}${TRIGGER_WORDS[firing.trigger]} skipped: ${runsInFlight(live())} (max_concurrent ${config.max_concurrent}, on_overlap = skip)` }));
        break;
      case 'queue':
        if (queue.length < config.max_queued) {
          queue.push(firing);
        } else {
          dropped++;
          effects.push(event(input, { event: 'queue_full', msg: `firing for slot ${iso(firing.slot)} dropped: ${queue.length} already queued (max_queued ${config.max_queued})` }));
        }
        break;
      case 'kill': {
        const victim = runs.filter((r) => !r.stopping).sort((a, b) => a.startedAt - b.startedAt)[0];
        if (victim) {
          runs = runs.map((r) => (r === victim ? stopRun(r, 'overlap', false, input.now, effects) : r));
        } else {
          // Every live slot is a spawn planned in this pass (catch-up): the newer firing replaces it.
          const older = spawns.shift()!;
          effects.splice(effects.indexOf(older), 1);
          skipped++;
          effects.push(event(input, { event: 'cron_skipped', msg: `firing for slot ${iso(older.firing.slot)}${TRIGGER_WORDS[older.firing.trigger]} skipped: replaced by the newer firing for slot ${iso(firing.slot)} (max_concurrent ${config.max_concurrent}, on_overlap = kill)` }));
        }
        spawn(firing);
        break;
      }
      default: {
        const never: never = config.on_overlap;
        throw new TypeError(`unknown on_overlap ${String(never)}`);
      }
    }
  }
  return { ...s, runs, queue, skipped, dropped };
}

function sameFirings(a: readonly Firing[], b: readonly Firing[]): boolean {
  return a.length === b.length && a.every((f, i) => f.slot === b[i].slot && f.trigger === b[i].trigger);
}

function runsInFlight(n: number): string {
  return `${n} run${n === 1 ? '' : 's'} in flight`;
}

/** How a skipped firing is named after its slot (a firing on time needs no word). */
const TRIGGER_WORDS: Record<Firing['trigger'], string> = { schedule: '', catchup: ', catchup', queue: ', queue', manual: ', manual' };

/** random x jitter_sec, within the time from `slot` to the next one (`nextSlot`, null when there is none). */
function jitterMs(config: EffectiveConfig, random: number, slot: number, nextSlot: number | null): number {
  if (!config.jitter_sec) return 0;
  const span = Math.min(config.jitter_sec * 1000, nextSlot === null ? Infinity : nextSlot - slot);
  return Math.floor(random * span);
}

/** When a state needs its next pass: the pending firing, a SIGKILL deadline or a kill_after cap. */
export function wakeAtOf(s: CronState): number | null {
  return minOf(nextFireAt(s), s.active ? s.lookAgainAt : null, deadlines(s.runs));
}

/** What `state.detail` says while no next slot can be found (LOOK_AGAIN_MS). */
export function noSlotDetail(s: CronState): string | null {
  return s.active && s.lookAgainAt ? `no next time found for the schedule (cron-parser gives up near a DST change of its zone); looked for again at ${iso(s.lookAgainAt)}` : null;
}

/** The time shown as the next firing: the drawn jitter once due, else the slot. */
export function nextFireAt(s: CronState): number | null {
  return s.active && s.pending ? (s.pending.at ?? s.pending.slot) : null;
}

function deadlines(runs: CronRun[]): number | null {
  let at: number | null = null;
  for (const r of runs) {
    if (r.stopping) {
      if (!r.stopping.killed) at = minOf(at, r.stopping.deadline);
    } else if (r.killAt !== null) {
      at = minOf(at, r.killAt);
    }
  }
  return at;
}

function minOf(...values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.min(...known);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function event(input: CronPlanInput, e: EventInput): CronEffect {
  return { kind: 'event', event: { program_id: input.id, program_name: input.config?.name ?? null, ...e } };
}

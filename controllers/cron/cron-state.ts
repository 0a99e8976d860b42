import type { CronLastRun } from '../../state/observed.js';
import type { Intent } from '../../state/program.js';

/** What started a run: its slot on time, a missed slot (catchup), a queued firing, or a restart request. */
export type Trigger = 'schedule' | 'catchup' | 'queue' | 'manual';

/** Why svc itself ends a run (absent when the run ends by itself). */
export type RunStopReason = 'stop' | 'remove' | 'shutdown' | 'overlap' | 'kill_after';

/** One process started for one firing. Runs are never restarted. */
export interface CronRun {
  pid: number;
  /** Unix ms. */
  startedAt: number;
  slot: number;
  trigger: Trigger;
  /** Unix ms at which kill_after_secs ends the run, or null without a cap. */
  killAt: number | null;
  /** stopsecs when it started, so a removed program still stops its runs gracefully. */
  stopsecs: number;
  /** SIGTERM sent; SIGKILL at `deadline` unless it ended (or at once when `killed`). */
  stopping: { reason: RunStopReason; deadline: number; killed: boolean } | null;
  /** Re-adopted after a daemon restart (its start time is when it was found). */
  adopted?: boolean;
}

/** A firing that waits for a free run slot (on_overlap = queue). */
export interface Firing {
  slot: number;
  trigger: Trigger;
}

/** The durable mark of a schedule (store.meta `cron:<id>`), written behind the controller. */
export interface CronMark {
  /** The newest slot handled (fired, skipped, queued or dropped), Unix ms. */
  last_fire_at: number;
  /** Paused by `svc stop`: slots while paused are not missed, so there is nothing to catch up. */
  paused: boolean;
  /** The queue when it is not empty: queued firings are kept across a restart of svcd, graceful or not. */
  queued?: Firing[];
  /** A slot waiting for its drawn jitter: the next daemon waits for the same time. */
  jitter?: { slot: number; at: number };
}

/** The cron controller's view of one program (in memory, rebuilt at start-up). */
export interface CronState {
  /** The schedule (expression + zone) the state was computed for; null before the first pass. */
  scheduleKey: string | null;
  /** Whether the schedule was active on the last pass; null before the first pass. */
  active: boolean | null;
  /** The newest slot handled; null until the first active pass (then the durable mark or now). */
  lastFire: number | null;
  /** The next slot, and once it is due the time it fires at (slot + jitter). */
  pending: { slot: number; at: number | null } | null;
  /**
   * No next slot could be computed (cron-parser gives up near a DST change of a zone that shifts
   * by half an hour): when to look again. Null while the schedule has its next slot.
   */
  lookAgainAt: number | null;
  runs: CronRun[];
  queue: Firing[];
  appliedStart: number;
  appliedRestart: number;
  lastRun: CronLastRun | null;
  skipped: number;
  dropped: number;
  /** Set by daemon shutdown: stop runs and fire nothing, without changing the stored intent. */
  shutdown: boolean;
}

export function initialCronState(intent: Intent | undefined, mark: CronMark | undefined): CronState {
  return {
    scheduleKey: null,
    active: null,
    lastFire: mark && !mark.paused ? mark.last_fire_at : null,
    // A slot that was waiting for its jitter waits for the same time (a new draw could find it late).
    pending: mark && !mark.paused && mark.jitter && mark.jitter.slot > mark.last_fire_at ? { slot: mark.jitter.slot, at: mark.jitter.at } : null,
    lookAgainAt: null,
    runs: [],
    // A paused mark has no queue: a pause drops it (docs/cron.md).
    queue: mark && !mark.paused ? [...(mark.queued ?? [])] : [],
    appliedStart: intent?.start_seq ?? 0,
    appliedRestart: intent?.restart_seq ?? 0,
    lastRun: null,
    skipped: 0,
    dropped: 0,
    shutdown: false,
  };
}

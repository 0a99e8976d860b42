import type { StopInProgress } from '../../state/runtime-store.js';
import type { LastExit } from '../../state/observed.js';
import type { ReloadOutcome, ReloadView } from '../../state/reload.js';
import type { Intent } from '../../state/program.js';
import type { ProgramStatus } from '../../state/status.js';
import type { ExitInfo } from '../os/port.js';

/**
 * Why svc itself ended a process; absent for exits the program chose (or crashes). `restart`
 * covers a user's restart and a planned restart request (OTA); `health`: a failing health check
 * asked for one, judged by the restart policy.
 */
export type StopReason = StopInProgress['reason'];

/** Stops that end the program's run; a `health` stop is a restart under the restart policy. */
export const PLANNED_STOPS: ReadonlySet<StopReason> = new Set(['stop', 'restart', 'remove', 'shutdown']);

export interface LiveProcess {
  pid: number;
  startTime: number;
  /** Unix ms. */
  startedAt: number;
  /** stopsecs when it started, so a removed program still stops gracefully. */
  stopsecs: number;
  /** Re-adopted after a daemon restart: not our child, exit status may be unknowable. */
  adopted: boolean;
}

/**
 * A hook runs outside the reconcile pass (it may take up to a minute): the applier launches it
 * and records its outcome here when it ends, then wakes the key. `token` ties an outcome to the
 * launch it belongs to, so a late outcome of an abandoned attempt is ignored.
 */
export interface HookRun {
  token: number;
  /** null while it runs; then null error = success. */
  outcome: { error: string | null } | null;
}

/** The process controller's view of one program (observed, in memory). */
export interface ProcState {
  status: ProgramStatus;
  proc: LiveProcess | null;
  /** An exit seen by the OS port and not yet judged by the planner. */
  exit: ExitInfo | null;
  stopping: StopInProgress | null;
  retries: number;
  restarts: number;
  nextRetryAt: number | null;
  /** The intent sequence numbers already acted on. */
  appliedStart: number;
  appliedRestart: number;
  lastExit: LastExit | null;
  /** Why the program is not started yet (dependencies, a hook) or not stopped yet (stop order). */
  waiting: string | null;
  /** The pre_start hook of the current start attempt. */
  preStart: HookRun | null;
  /** The post_stop hook of the last exit: a new start waits for it. */
  postStop: HookRun | null;
  /** Last hook token handed out. */
  hookToken: number;
  /** The second process of a reload (controllers/process/reload-plan.ts), or null. */
  overlap: Overlap | null;
  /** The intent reload_seq already acted on. */
  appliedReload: number;
  lastReload: ReloadOutcome | null;
}

/**
 * The second process of a program during a reload: the successor until it is Healthy (or fails,
 * then it is aborting), the old process once the successor took over (retiring).
 */
export interface Overlap {
  phase: ReloadView['phase'];
  proc: LiveProcess;
  /** Its exit, seen by the OS port and not yet judged. */
  exit: ExitInfo | null;
  /** successor: Healthy by then or the reload fails; retiring, aborting: SIGKILL then. */
  deadline: number;
  /** The successor phase's whole bound (ms). */
  timeoutMs: number;
  killed: boolean;
}

export function initialProcState(intent: Intent | undefined): ProcState {
  return {
    status: 'Stopped',
    proc: null,
    exit: null,
    stopping: null,
    retries: 0,
    restarts: 0,
    nextRetryAt: null,
    appliedStart: intent?.start_seq ?? 0,
    appliedRestart: intent?.restart_seq ?? 0,
    lastExit: null,
    waiting: null,
    preStart: null,
    postStop: null,
    hookToken: 0,
    overlap: null,
    appliedReload: intent?.reload_seq ?? 0,
    lastReload: null,
  };
}

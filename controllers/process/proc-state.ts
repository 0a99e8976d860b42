import type { LastExit } from '../../state/observed.js';
import type { Intent } from '../../state/program.js';
import type { ProgramStatus } from '../../state/status.js';
import type { ExitInfo } from '../os/port.js';

/** Why svc itself ended a process; absent for exits the program chose (or crashes). */
export type StopReason = 'stop' | 'restart' | 'remove' | 'shutdown' | 'health';

/** Stops that end the program's run; a `health` stop is a restart under the restart policy. */
export const PLANNED_STOPS: ReadonlySet<StopReason> = new Set(['stop', 'restart', 'remove', 'shutdown']);

export interface LiveProcess {
  pid: number;
  startTime: number;
  /** Unix ms. */
  startedAt: number;
  /** stopsecs when it started, so a removed program still stops gracefully. */
  stopsecs: number;
  /** Re-adopted after a daemon restart: not our child, exit status unknowable. */
  adopted: boolean;
}

/** The process controller's view of one program (observed, in memory). */
export interface ProcState {
  status: ProgramStatus;
  proc: LiveProcess | null;
  /** An exit seen by the OS port and not yet judged by the planner. */
  exit: ExitInfo | null;
  stopping: { reason: StopReason; deadline: number; killed: boolean } | null;
  retries: number;
  restarts: number;
  nextRetryAt: number | null;
  /** The intent sequence numbers already acted on. */
  appliedStart: number;
  appliedRestart: number;
  lastExit: LastExit | null;
  /** Set by daemon shutdown: stop regardless of intent, without changing the stored intent. */
  shutdown: boolean;
  /** Why the program is not started yet (dependencies), shown as detail. */
  waiting: string | null;
  /** The pid the health controller asked to restart (restart_on_failure). */
  healthRestartPid: number | null;
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
    shutdown: false,
    waiting: null,
    healthRestartPid: null,
  };
}

/**
 * The shapes the dashboard reads from the daemon. Type-only imports from where the daemon defines
 * them: nothing of the daemon is bundled, the dashboard only talks HTTP and WebSocket.
 */
import type { OtaView } from '../../../state/ota.js';
import type { ActionOutcome } from '../../../operations/actions.js';
import type { EventRecord } from '../../../state/events/types.js';
import type { CronObserved, HealthView, LastExit } from '../../../state/observed.js';
import type { WaitResult } from '../../../state/readiness.js';

export type { EventRecord, LastExit, HealthView };
export type BatchOutcome = ActionOutcome;

/** A list item (spec: Program summary, plus restarts, start time and the cron fields). */
export interface ProgramSummary {
  id: string;
  name: string;
  /** The program's group_name, or null (absent from a daemon older than this field). */
  group_name?: string | null;
  status: string;
  pid: number | null;
  cpu_usage: number;
  mem_usage: number;
  restarts: number;
  started_at: number | null;
  next_fire_at?: number | null;
  cron_running?: number;
  /** Removed, its process still stopping: listed until the process has ended. */
  removed?: true;
}

/** The stored configuration of a program (as returned; the daemon redacts by role). */
export type ProgramConfig = Record<string, unknown> & { name: string; command: string; source?: string; cron?: string };

export interface ProgramDetail extends ProgramSummary {
  config: ProgramConfig;
  state: {
    status: string;
    desired?: 'running' | 'stopped';
    pid: number | null;
    started_at: number | null;
    uptime_secs: number | null;
    retries: number;
    restarts: number;
    next_retry_at: number | null;
    last_exit: LastExit | null;
    detail: string | null;
    health: HealthView | null;
    cpu_usage: number;
    mem_usage: number;
    cron?: CronObserved;
    /** Programs with resource_limits (docs/isolation.md): enforced, or why not. */
    isolation?: { enforced: boolean; reason: string | null; cgroup: string | null; oom_kills: number; status: string };
    /** Programs with an artifact (docs/ota.md, "Status"): the update's phase, checksums and progress. */
    ota?: OtaView | null;
  };
  revision?: number;
  created_at?: number;
  updated_at?: number;
}

/** A table row: the summary plus what the table shows from the configuration. */
export interface ProgramRow extends ProgramSummary {
  source: string | null;
  cron: string | null;
  /** The health check type, or null without one. */
  check: string | null;
}

export interface SystemStats {
  cpu_percent: number;
  memory_used_bytes: number;
  memory_total_bytes: number;
  timestamp: number;
}

export interface EventStats {
  total: number;
  by_type: Record<string, number>;
  first_ts: number | null;
  last_ts: number | null;
}

export interface LicenseInfo {
  issued_to?: string;
  issued_at?: number;
  major_version?: number;
  grants?: string[];
  expires_at?: number;
  license_id?: string;
  features?: string[];
  plugin_versions?: Record<string, string>;
}

export interface AuthStatus {
  auth_required: boolean;
  mode?: string;
  authenticated?: boolean;
  role?: string;
  security_plugin?: boolean;
}

export type ActionType = 'Start' | 'Stop' | 'Restart' | 'Reload' | 'Remove' | 'Signal';

export interface BatchAction {
  type: ActionType;
  payload: { force?: boolean; signal?: string } | null;
}

export interface LogLine {
  source: 'stdout' | 'stderr';
  content: string;
  ts?: number;
}

export interface StackResponse {
  status: string;
  dry_run: boolean;
  source: string;
  lines: string[];
  /** The plan's id; an apply sent with it as `?plan=` does exactly this plan or nothing (409). */
  plan?: string;
  /** With `?wait=SECS` only: whether the stack's programs became ready (docs/stacks.md). */
  wait?: WaitResult;
}

/** The shapes the dashboard reads from the API (docs/api.md, docs/events.md); only what it shows. */

import type { ActionOutcome } from '../../operations/actions.js';
import type { EventRecord } from '../../state/events/types.js';
import type { CronObserved, HealthView, LastExit } from '../../state/observed.js';
import type { OtaView } from '../../state/ota.js';
import type { ProgramSummary } from '../cli/programs.js';

// Wire types come from where the daemon defines them (type-only imports: nothing of the daemon
// is loaded at run time, the dashboard still only talks HTTP).
export type { LastExit, ProbeResult } from '../../state/observed.js';
/** A list item (spec: Program summary). */
export type ProgramItem = ProgramSummary;
export type HealthState = HealthView;

/** The program's stored configuration; only the fields the detail pane summarises. */
export interface ConfigView {
  name: string;
  command: string;
  args?: string[];
  cwd?: string;
  autorestart?: string;
  retry_limit?: number;
  depends_on?: string[];
  health_check?: { type?: string } | null;
  cron?: string;
  source?: string;
}

export interface ProgramDetail extends ProgramItem {
  config: ConfigView;
  state: {
    status: string;
    desired?: 'running' | 'stopped';
    uptime_secs: number | null;
    retries: number;
    next_retry_at: number | null;
    cron?: Pick<CronObserved, 'next_fire_at' | 'running'> | null;
    last_exit: LastExit | null;
    detail: string | null;
    health: HealthState | null;
    /** Programs with an artifact (docs/ota.md). */
    ota?: OtaView;
  };
}

export type EventItem = Pick<EventRecord, 'id' | 'ts_ms' | 'program_id' | 'program_name' | 'event' | 'exit_code' | 'signal' | 'msg'>;

export interface SystemStats {
  cpu_percent: number;
  memory_used_bytes: number;
  memory_total_bytes: number;
}

export type ActionType = 'Start' | 'Stop' | 'Restart' | 'Remove' | 'Signal';

export interface BatchAction {
  type: ActionType;
  payload: { force?: boolean; signal?: string } | null;
}

export type BatchOutcome = ActionOutcome;

export interface LogLine {
  source: 'stdout' | 'stderr';
  content: string;
  ts?: number;
}

/** live: WebSocket; polling: HTTP tail every second (no WebSocket route); closed: program gone. */
export type LogMode = 'connecting' | 'live' | 'polling' | 'closed';

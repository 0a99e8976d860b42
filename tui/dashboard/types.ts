/** The shapes the dashboard reads from the API (docs/api.md, docs/events.md); only what it shows. */

/** A list item. Cron programs carry `next_fire_at` (Unix ms) and `cron_running`. */
export interface ProgramItem {
  id: string;
  name: string;
  status: string;
  pid: number | null;
  cpu_usage: number;
  mem_usage: number;
  restarts: number;
  started_at: number | null;
  next_fire_at?: number | null;
}

export interface ProbeResult {
  at: number;
  ok: boolean;
  latency_ms: number;
  message: string;
}

export interface HealthState {
  healthy: boolean | null;
  failures: number;
  successes: number;
  last: ProbeResult | null;
  recent: ProbeResult[];
}

export interface LastExit {
  exit_code: number | null;
  signal: number | null;
  at: number;
  duration_ms: number;
  reason: string;
  msg: string;
}

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
    desired?: boolean;
    uptime_secs: number | null;
    retries: number;
    next_retry_at: number | null;
    cron?: { next_fire_at: number | null; running: number } | null;
    last_exit: LastExit | null;
    detail: string | null;
    health: HealthState | null;
  };
}

export interface EventItem {
  id: string;
  ts_ms: number;
  program_id: string | null;
  program_name: string | null;
  event: string;
  exit_code: number | null;
  signal: number | null;
  msg: string;
}

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

export interface BatchOutcome {
  id: string;
  name: string;
  ok: boolean;
  status?: string;
  error?: string;
}

export interface LogLine {
  source: 'stdout' | 'stderr';
  content: string;
  ts?: number;
}

/** live: WebSocket; polling: HTTP tail every second (no WebSocket route); closed: program gone. */
export type LogMode = 'connecting' | 'live' | 'polling' | 'closed';

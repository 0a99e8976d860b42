/**
 * What the API sees of event reactions (controllers/reactions, docs/reactions.md): the loaded
 * set with each reaction's last run, the load error of the last edit, and test runs.
 */

/** Why a match did not run. */
export type SkipReason = 'disabled' | 'cooldown' | 'concurrency';

/** How a run ended: exit 0; another exit or a signal; killed at timeout_secs; never started. */
export type RunOutcome = 'ok' | 'failed' | 'timeout' | 'spawn_failed';

/** One run (finished, or running), as `GET /api/v1/system/reactions` shows it. */
export interface RunRecord {
  /** The triggering event's id (a test run's synthetic event: `test-<ts_ms>-<n>`). */
  event_id: string;
  event: string;
  program_name: string | null;
  /** Unix ms. */
  started_at: number;
  finished_at: number | null;
  outcome: RunOutcome | 'running';
  exit_code: number | null;
  signal: number | null;
  duration_secs: number | null;
  msg: string;
  test: boolean;
}

export interface ReactionView {
  name: string;
  enabled: boolean;
  events: string[];
  /** null: every event (system events included). */
  programs: string[] | null;
  command: string[];
  shell: boolean;
  cwd: string;
  timeout_secs: number;
  max_concurrent: number;
  cooldown_secs: number;
  /** Names only: values may be secrets. */
  env_names: string[];
  log_file: string;
  running: number;
  runs: Record<RunOutcome, number>;
  skipped: Record<SkipReason, number>;
  last_run: RunRecord | null;
}

export interface ReactionsStatus {
  file: string;
  /** Whether the file is watched for edits (always, unless svcd runs without a watch). */
  watching: boolean;
  /** Unix ms the reaction set in force was loaded; null: never (no file yet, or only errors). */
  loaded_at: number | null;
  /** The last load attempt failed: its problems (file:line: ...), and the last good set stays in force. */
  load_error: { at: number; errors: string[] } | null;
  reactions: ReactionView[];
}

/** A synthetic event for a test run; absent fields come from the reaction (docs/reactions.md). */
export interface TestEventInput {
  event?: string;
  program_id?: string | null;
  program_name?: string | null;
}

export interface ReactionsPort {
  status(): ReactionsStatus;
  /** Runs a reaction now with a synthetic event and resolves when it ended; SvcError 404/409/400. */
  test(name: string, input: TestEventInput): Promise<RunRecord>;
}

/**
 * The request and response bodies of every route, as clients see them (docs/api.md). Routes and
 * api/views.ts build these types; tui/client/ (the CLI and the Ink dashboard) and other clients
 * import them type-only: nothing of the daemon loads with them. Types the daemon already
 * defines where the data lives (observed state, events, stack status) are re-exported here, not
 * written again.
 */
import type { BatchRequest, runBatch } from '../operations/batch.js';
import type { StackStatusBody } from '../stacks/stack-problems.js';
import type { Authenticator, Principal, Role } from '../state/auth/principal.js';
import type { EventStats } from '../state/events/event-log.js';
import type { EventRecord } from '../state/events/types.js';
import type { HealthView, ObservedProgram } from '../state/observed.js';
import type { IsolationView } from '../state/isolation.js';
import type { OtaView } from '../state/ota.js';
import type { Intent, ProgramConfig } from '../state/program.js';
import type { WaitResult } from '../state/readiness.js';
import type { SystemStats } from '../state/system-stats.js';
import type { ReloadOutcome, ReloadView } from '../state/reload.js';

export type { ActionOutcome } from '../operations/actions.js';
export type { BatchActionType, BatchRequest } from '../operations/batch.js';
export type { StackDirStatus, StackFileStatus } from '../stacks/status.js';
export type { EventStats } from '../state/events/event-log.js';
export type { EventRecord, EventType } from '../state/events/types.js';
export type { CronLastRun, CronObserved, HealthView, LastExit, ProbeResult } from '../state/observed.js';
export type { ProgramConfig } from '../state/program.js';
export type { ProgramStatus } from '../state/status.js';
export type { SystemStats } from '../state/system-stats.js';

/** `GET /health`. */
export interface Health {
  status: 'ok';
  version: string;
  uptime_secs: number;
}

/**
 * An item of `GET /api/v1/programs` (spec: Program summary, plus restarts and start time): the
 * observed fields as documented on ObservedProgram (cpu_usage: percent of one core, mem_usage:
 * RSS bytes, both of the main process; started_at: Unix ms, uptime is now minus it).
 */
export type ProgramSummary = Pick<ObservedProgram, 'status' | 'pid' | 'cpu_usage' | 'mem_usage' | 'restarts' | 'started_at'> & {
  id: string;
  name: string;
  /** The program's `group_name`, or null (svc addition). */
  group_name: string | null;
  /** Cron programs only: next firing (Unix ms, null while paused) and runs in flight. */
  next_fire_at?: number | null;
  cron_running?: number;
  /** Removed, its process still stopping (state/departing.ts): shown until the process has ended. */
  removed?: true;
};

/** The observed state part of a program detail. */
export type ProgramStateView = Pick<
  ObservedProgram,
  'status' | 'pid' | 'started_at' | 'retries' | 'restarts' | 'next_retry_at' | 'last_exit' | 'detail' | 'health' | 'cpu_usage' | 'mem_usage' | 'cron'
> & {
  desired: Intent['run'];
  uptime_secs: number | null;
  /** The second process while a reload runs (docs/reload.md), else null. */
  reload?: ReloadView | null;
  /** How the last reload request ended, or null. */
  last_reload?: ReloadOutcome | null;
  /** Programs with an artifact (docs/ota.md). */
  ota?: OtaView;
  /** Programs with resource_limits (docs/isolation.md): enforced, or why not, in `status`. */
  isolation?: IsolationView & { status: string };
};

/** `GET /api/v1/programs/{id}` and the answer of `PUT /api/v1/programs/{id}`. */
export type ProgramDetail = ProgramSummary & {
  /** The configuration as stored (what the user wrote, including `source`). */
  config: ProgramConfig;
  state: ProgramStateView;
  revision: number;
  created_at: number;
  updated_at: number;
};

/** `POST /api/v1/programs`: `id` only when one configuration (not an array) was sent. */
export interface CreateResult {
  id?: string;
  ids: string[];
}

/** `POST /api/v1/programs/batch`: the action and one outcome per target. */
export type BatchResult = Awaited<ReturnType<typeof runBatch>>;
/** The `action` of a batch request. */
export type BatchAction = BatchRequest['action'];

/** One line of `GET /api/v1/programs/{id}/logs` (no `ts`) or of the log stream (with `ts`). */
export interface LogLine {
  source: 'stdout' | 'stderr';
  /** The line without its newline. */
  content: string;
  /** Unix seconds, with milliseconds, when svcd read the line (not when the program wrote it). */
  ts?: number;
}

/**
 * One message of `WS /ws?id=`. A line longer than 64 KiB comes in pieces: each but the last has
 * `continues: true`, and the next message of the same source goes on with it.
 */
export type LogStreamMessage = Required<LogLine> & { continues?: true };

/** `GET /api/v1/programs/{id}/logs`. */
export interface LogsResult {
  id: string;
  logs: LogLine[];
}

/** `POST /api/v1/programs/{id}/logs/flush`: the files emptied (a file not written yet is not listed). */
export interface LogFlushResult {
  id: string;
  flushed: string[];
}

/** `PUT /api/v1/stack`. */
export interface StackApplyResult {
  status: 'ok';
  dry_run: boolean;
  source: string;
  /** `created web`, `updated api (restart)`, `unchanged db`, `pruned old-job`. */
  lines: string[];
  /** The plan's id: `?plan=` with it applies exactly this plan, or nothing (409). */
  plan: string;
  /** With `?wait=`: whether the stack's programs got ready, and why not (state/readiness.ts). */
  wait?: WaitResult;
}

/** `GET /api/v1/stack`: the desired state as a stack that re-applies to no change. */
export interface StackExport {
  prune: false;
  services: ProgramConfig[];
}

/** `GET /api/v1/stack/status`. */
/** `GET /api/v1/stack/status`: the watched directory's files, then the git sources (docs/gitops.md). */
export type StackStatus = StackStatusBody;

/** `GET /api/v1/events` is `EventRecord[]`; `GET /api/v1/events/stats` is `EventStats`. */
export type EventList = EventRecord[];
export type EventStatsResult = EventStats;

/** `POST /api/v1/system/shutdown` (202). */
export interface ShutdownAccepted {
  status: 'shutting_down';
  message: string;
}

/** Who a credential is, as the auth routes tell it. */
export type PrincipalView = { role: Role; principal: Principal['kind']; token?: { id: string; name: string } };

/** `POST /api/v1/auth/login`. */
export type LoginResult = { status: 'ok'; authenticated: true; mode: Authenticator['mode'] } & PrincipalView;

/** `GET /api/v1/auth/status` (`secret_enabled` with the security plugin; who, when authenticated). */
export type AuthStatus = {
  auth_required: true;
  mode: Authenticator['mode'];
  authenticated: boolean;
  security_plugin: boolean;
  secret_enabled?: boolean;
} & Partial<PrincipalView>;

/** The error body of every route (4xx and 5xx). */
export interface ErrorBody {
  status: 'error';
  message: string;
}

/**
 * A program as `GET /api/v1/watch` streams it: the summary plus what a dashboard table shows
 * without fetching the detail.
 */
export type WatchProgram = ProgramSummary & {
  /** The health verdict; null without an enabled health check or without a process. */
  health: Pick<HealthView, 'healthy' | 'failures'> | null;
  /** The provenance label (`config.source`), or null. */
  source: string | null;
};

/**
 * The messages of `GET /api/v1/watch` (Server-Sent Events, one JSON object per `data:` line;
 * docs/api.md): first one `snapshot`, then changes. A `program` message carries the whole entry
 * (replace, not merge); `system` comes every few seconds whether or not it changed, so silence
 * longer than that means the link is gone.
 */
export type WatchMessage =
  | { type: 'snapshot'; programs: WatchProgram[]; system: SystemStats | null }
  | { type: 'program'; program: WatchProgram }
  | { type: 'removed'; id: string }
  | { type: 'system'; system: SystemStats | null };

/**
 * Program configuration as stored (desired state), and the defaults applied when it is used.
 * Stored configs keep only what the user wrote, so `svc export` round-trips without noise.
 */
import type { artifactSchema, healthCheckSchema, programCreateSchema } from './schema/program-schema.js';
import type { Infer } from './schema/infer.js';

export type AutoRestart = 'unexpected' | 'true' | 'false';

/** As stored: validation turns a boolean `autorestart` into its string form. */
type Stored<T> = Omit<T, 'autorestart'> & { autorestart?: AutoRestart };

/** One health check (docs/health.md); the type is the schema's (state/schema/program-schema.ts). */
export type HealthCheck = Infer<typeof healthCheckSchema>;

/** An OTA artifact (spec: artifact). */
export type Artifact = Infer<typeof artifactSchema>;

/**
 * A program configuration as stored (desired state), derived from the one schema. Field
 * semantics and defaults are documented in docs/api.md and beside each schema property.
 */
export type ProgramConfig = Stored<Infer<typeof programCreateSchema>>;

/** Defaults of `artifact` fields (docs/ota.md); seconds. */
export const ARTIFACT_DEFAULTS = { download_timeout: 60, verify_timeout: 60, restart_policy: 'immediate', extract: false } as const;

/** The documented defaults (docs/api.md, "Program configuration"). */
export const PROGRAM_DEFAULTS = {
  autostart: true,
  autorestart: 'unexpected' as AutoRestart,
  exitcodes: [0],
  startsecs: 10,
  stopsecs: 10,
  backoff_secs: 1,
  backoff_max_secs: 60,
  priority: 999,
  on_overlap: 'skip' as const,
  catchup: 'skip' as const,
  max_concurrent: 1,
  max_queued: 100,
} as const;

export type EffectiveConfig = ProgramConfig & {
  autostart: boolean;
  autorestart: AutoRestart;
  exitcodes: number[];
  startsecs: number;
  stopsecs: number;
  backoff_secs: number;
  backoff_max_secs: number;
  priority: number;
  on_overlap: 'skip' | 'queue' | 'kill';
  catchup: 'skip' | 'latest' | 'all';
  max_concurrent: number;
  max_queued: number;
};

/** Stored configs are never mutated (every write makes a new object), so the result is cached. */
const effective = new WeakMap<ProgramConfig, EffectiveConfig>();

export function withDefaults(config: ProgramConfig): EffectiveConfig {
  let merged = effective.get(config);
  if (!merged) {
    merged = { ...PROGRAM_DEFAULTS, ...config } as EffectiveConfig;
    if (!config.max_queued) merged.max_queued = PROGRAM_DEFAULTS.max_queued; // spec: 0 means the default
    effective.set(config, merged);
  }
  return merged;
}

/** What the user asked the program to be doing; durable, written by API/CLI/stack actions. */
export interface Intent {
  /** Whether the program should be running. */
  run: 'running' | 'stopped';
  /** Bumped by every start request; acted on once (starts a stopped, exited or Fatal program). */
  start_seq: number;
  /** Bumped by every restart request; acted on once (stops a live process, then starts it). */
  restart_seq: number;
  /** The last stop request asked for SIGKILL at once. */
  force: boolean;
  /** The daemon run (BootContext.epoch) in which this intent was written; stamped by the store. */
  epoch?: number;
  /** Bumped by every `svc ota rollback` request; acted on once by the OTA controller (absent = 0). */
  ota_rollback_seq?: number;
  /** Bumped by every reload request (`svc reload`, docs/reload.md); acted on once by the process controller (absent = 0). */
  reload_seq?: number;
}

/**
 * The run intent of a program when it is created, and at a daemon boot (state/boot.ts): running
 * unless `autostart` is false. A cron program's schedule is not a boot-time start: it is active
 * from creation whatever `autostart` says (docs/cron.md).
 */
export function initialRun(config: Pick<ProgramConfig, 'autostart' | 'cron'>): Intent['run'] {
  return config.autostart === false && config.cron === undefined ? 'stopped' : 'running';
}

/** One stored program: configuration plus intent, written atomically. */
export interface ProgramRecord {
  id: string;
  config: ProgramConfig;
  intent: Intent;
  /** Increases by one on every write of this record. */
  revision: number;
  created_at: number;
  updated_at: number;
}

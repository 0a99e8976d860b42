import type { EventInput } from '../../state/events/types.js';
import { ARTIFACT_DEFAULTS, type Artifact, type EffectiveConfig } from '../../state/program.js';
import { SIGNALS, type SignalName } from '../../state/signals.js';
import type { ProgramStatus } from '../../state/status.js';
import type { OtaRecord } from './record.js';

/** How the new binary is taken into use after the swap (`artifact.restart_policy`). */
export type RestartPolicy = { kind: 'immediate' } | { kind: 'manual' } | { kind: 'signal'; signal: SignalName };

/** The artifact as the planner uses it, defaults applied. */
export interface OtaDesired {
  checksum: string;
  source: string;
  destination: string;
  extract: boolean;
  policy: RestartPolicy;
  /** 0 disables the overall deadline. */
  downloadTimeoutMs: number;
  /** 0 disables validation (and so automatic rollback). */
  verifyTimeoutMs: number;
}

export function parsePolicy(policy: string | undefined): RestartPolicy {
  if (!policy || policy === 'immediate') return { kind: 'immediate' };
  if (policy === 'manual') return { kind: 'manual' };
  // `signal` alone is SIGHUP, the conventional "reload" signal.
  const key = policy === 'signal' ? 'hup' : policy.slice('signal:'.length);
  return { kind: 'signal', signal: SIGNALS[key as keyof typeof SIGNALS] ?? 'SIGHUP' };
}

export function desiredOf(artifact: Artifact): OtaDesired {
  return {
    checksum: artifact.checksum.toLowerCase(),
    source: artifact.source,
    destination: artifact.destination,
    extract: artifact.extract ?? ARTIFACT_DEFAULTS.extract,
    policy: parsePolicy(artifact.restart_policy),
    downloadTimeoutMs: (artifact.download_timeout ?? ARTIFACT_DEFAULTS.download_timeout) * 1000,
    verifyTimeoutMs: (artifact.verify_timeout ?? ARTIFACT_DEFAULTS.verify_timeout) * 1000,
  };
}

/** What the planner needs of the program's configuration. */
export interface OtaProgramFacts {
  /** Cron programs are not restarted: their next run uses the new binary. */
  cron: boolean;
  startsecsMs: number;
  stopsecsMs: number;
  /** An enabled health_check exists: validation waits for Healthy. */
  healthCheck: boolean;
}

export function programFacts(config: EffectiveConfig): OtaProgramFacts {
  return {
    cron: config.cron !== undefined,
    startsecsMs: config.startsecs * 1000,
    stopsecsMs: config.stopsecs * 1000,
    healthCheck: config.health_check !== undefined && config.health_check.enabled !== false,
  };
}

/** What the planner reads of the observed state (published by the process and health controllers). */
export interface OtaObserved {
  status: ProgramStatus;
  pid: number | null;
  started_at: number | null;
  last_exit: { at: number; reason: string; msg: string } | null;
  /** Unix ms of the last health probe of the current process, and its message. */
  health_last: { at: number; ok: boolean; message: string } | null;
}

export type StepName = 'inspect' | 'download' | 'verify' | 'extract' | 'backup' | 'swap' | 'rollback' | 'signal';

/** A finished step, as data. `target` is the checksum the step worked for (inspect: none). */
export type StepOutcome =
  | { ok: true; step: 'inspect'; destination: string; digest: string | null }
  | { ok: true; step: 'download'; target: string; bytes: number }
  | { ok: true; step: 'verify'; target: string; digest: string }
  | { ok: true; step: 'extract'; target: string; digest: string; entry: string }
  | { ok: true; step: 'backup'; target: string; digest: string | null }
  | { ok: true; step: 'swap'; target: string }
  | { ok: true; step: 'rollback'; target: string | null }
  | { ok: true; step: 'signal'; target: string; pid: number }
  | {
      ok: false;
      step: StepName;
      target: string | null;
      error: string;
      /** The failure will not go away by trying again (an archive that is refused). */
      permanent: boolean;
      /** Cancelled by the controller: not a failure of the artifact. */
      aborted: boolean;
      /** swap only: the backup was already committed when the rename of the payload failed. */
      backupCommitted?: boolean;
      /** inspect only. */
      destination?: string;
    };

export interface OtaInput {
  id: string;
  name: string;
  /** The artifact; null when the program or its artifact was removed. */
  desired: OtaDesired | null;
  program: OtaProgramFacts | null;
  observed: OtaObserved;
  /** Whether the program should be running (intent). */
  runWanted: boolean;
  record: OtaRecord | null;
  /** A step in flight for this program (in this daemon's life). */
  running: StepName | null;
  /** A finished step not yet judged. */
  outcome: StepOutcome | null;
  /** The program's `ota_rollback_seq` intent. */
  rollbackSeq: number;
  /** First pass for this program since the daemon started (a window in progress starts afresh). */
  resumed: boolean;
  now: number;
  /** Failed attempts (download, checksum, swap) before giving up on a checksum. */
  maxAttempts: number;
}

export type OtaEffect =
  | { kind: 'step'; step: Exclude<StepName, 'signal'> }
  | { kind: 'step'; step: 'signal'; pid: number; signal: SignalName }
  /** A signal with no validation after it (verify_timeout = 0). */
  | { kind: 'signal'; pid: number; signal: SignalName }
  /** Abort the step in flight (its outcome comes back with `aborted`). */
  | { kind: 'cancel' }
  /** Remove this program's temporary files next to `destination`. */
  | { kind: 'cleanup'; destination: string }
  | { kind: 'event'; event: EventInput };

export interface OtaPlan {
  /** The record to persist before the effects are carried out; null deletes it. */
  record: OtaRecord | null;
  effects: OtaEffect[];
  requeueAt?: number;
}

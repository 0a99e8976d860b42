/**
 * What the OTA controller publishes about one program (observed state `ota`; docs/ota.md).
 * Checksums are the artifact's SHA-256 hex digests as the user wrote them in `artifact.checksum`.
 */

/** The step an update is at. Each is persisted before it is taken (docs/ota.md has the diagram). */
export const OTA_PHASES = [
  'idle',
  'downloading',
  'verifying',
  'extracting',
  'backing_up',
  'swapping',
  'restarting',
  'validating',
  'rolling_back',
  'retry_wait',
] as const;
export type OtaPhase = (typeof OTA_PHASES)[number];

/**
 * How the last update attempt ended: applied (swapped, and validated unless verify_timeout is 0),
 * retrying (an attempt failed; another follows after a backoff), failed (given up, or nothing to
 * roll back to), rolled_back (the backup was restored).
 */
export const OTA_RESULTS = ['applied', 'retrying', 'failed', 'rolled_back'] as const;
export type OtaResult = (typeof OTA_RESULTS)[number];

export interface OtaLast {
  result: OtaResult;
  reason: string;
  /** Unix ms. */
  at: number;
  /** The checksum the result is about. */
  checksum: string | null;
}

export interface OtaView {
  phase: OtaPhase;
  /** What the destination holds: the artifact checksum it was installed from (or, before the first install, the file's own SHA-256); null when missing. */
  installed: string | null;
  /** The checksum being installed; null when idle. */
  target: string | null;
  /** The checksum `svc ota rollback` would restore (the file `<destination>.svc-backup`); null when none. */
  backup: string | null;
  /** Failed attempts at `target` so far. */
  attempts: number;
  /** Unix ms of the next attempt while in retry_wait. */
  next_attempt_at: number | null;
  /** A checksum that was rolled back or given up on: not tried again until the desired checksum changes. */
  rejected: string | null;
  /** The new binary is in place but the running process predates it (restart_policy = manual). */
  restart_pending: boolean;
  /** Unix ms the new binary was swapped in (or the backup restored). */
  swapped_at: number | null;
  /** Unix ms by which the new binary must pass validation (restarting, validating). */
  deadline: number | null;
  last: OtaLast | null;
  /** Manual rollback requests handled (intent `ota_rollback_seq`), so a request can wait for its effect. */
  rollback_seq: number;
  /**
   * While downloading: the bytes received so far and the size the server announced
   * (Content-Length; null without one). Published at most once a second; null otherwise.
   */
  download: OtaDownloadProgress | null;
}

export interface OtaDownloadProgress {
  received_bytes: number;
  total_bytes: number | null;
}

import { OTA_PHASES, OTA_RESULTS, type OtaLast, type OtaPhase } from '../../state/ota.js';

/** A binary at the destination: the artifact checksum it came from and the file's own SHA-256. */
export interface Version {
  checksum: string;
  digest: string;
}

/**
 * The OTA controller's durable record of one program (`status:ota:<id>`), written before each
 * step is taken. Everything a daemon restarted at any instant needs to resume or roll back.
 */
export interface OtaRecord {
  phase: OtaPhase;
  /** The destination this record is about (a changed destination is inspected afresh). */
  destination: string;
  /** What the destination holds; null when it is missing (or could not be read). */
  installed: Version | null;
  /** The checksum being installed (every phase but idle). */
  target: string | null;
  /** SHA-256 of the staged payload (the verified download, or the file extracted from it). */
  staged: string | null;
  /** What `<destination>.svc-backup` holds; null when there is nothing to roll back to. */
  backup: Version | null;
  /** Prepared by the backup step, becomes `backup` with the swap. */
  backup_next: Version | null;
  attempts: number;
  next_attempt_at: number | null;
  /** Rolled back or given up: not tried again until the desired checksum changes. */
  rejected: string | null;
  /** Unix ms of the last swap (or restore that a restart follows). */
  swapped_at: number | null;
  /** The process that was live at that swap: it runs the previous binary until restarted. */
  swap_pid: number | null;
  /** The process under validation, and since when it counts (start, or the signal). */
  validating: { pid: number; since: number } | null;
  /** Unix ms when restarting or validating gives up. */
  deadline: number | null;
  /** A restart asked of the process controller, published while `pid` is the live process. */
  restart: { pid: number; reason: string } | null;
  rollback_reason: string | null;
  /** Manual rollback requests (intent `ota_rollback_seq`) handled. */
  rollback_seq: number;
  last: OtaLast | null;
}

/** Phases before the destination changes: cancelling them leaves nothing behind but temp files. */
export const PRE_SWAP: ReadonlySet<OtaPhase> = new Set(['downloading', 'verifying', 'extracting', 'backing_up', 'swapping', 'retry_wait']);

export function freshRecord(destination: string, installed: Version | null, rollbackSeq: number): OtaRecord {
  return {
    phase: 'idle',
    destination,
    installed,
    target: null,
    staged: null,
    backup: null,
    backup_next: null,
    attempts: 0,
    next_attempt_at: null,
    rejected: null,
    swapped_at: null,
    swap_pid: null,
    validating: null,
    deadline: null,
    restart: null,
    rollback_reason: null,
    rollback_seq: rollbackSeq,
    last: null,
  };
}

const SHA = /^[0-9a-f]{64}$/i;
const isVersion = (v: unknown): boolean => v === null || (typeof v === 'object' && SHA.test(String((v as Version).checksum)) && SHA.test(String((v as Version).digest)));
const isNum = (v: unknown): boolean => v === null || typeof v === 'number';
const isStr = (v: unknown): boolean => v === null || typeof v === 'string';

/** Checks a stored record's shape (a record from another version or a corrupt one is rejected). */
export function parseRecord(value: unknown): OtaRecord | null {
  const r = value as OtaRecord | null;
  if (typeof r !== 'object' || r === null) return null;
  const ok =
    (OTA_PHASES as readonly string[]).includes(r.phase) &&
    typeof r.destination === 'string' &&
    r.destination.startsWith('/') &&
    isVersion(r.installed) &&
    isVersion(r.backup) &&
    isVersion(r.backup_next) &&
    isStr(r.target) &&
    isStr(r.staged) &&
    isStr(r.rejected) &&
    isStr(r.rollback_reason) &&
    typeof r.attempts === 'number' &&
    typeof r.rollback_seq === 'number' &&
    isNum(r.next_attempt_at) &&
    isNum(r.swapped_at) &&
    isNum(r.swap_pid) &&
    isNum(r.deadline) &&
    (r.validating === null || (typeof r.validating?.pid === 'number' && typeof r.validating.since === 'number')) &&
    (r.restart === null || (typeof r.restart?.pid === 'number' && typeof r.restart.reason === 'string')) &&
    (r.last === null || (OTA_RESULTS as readonly string[]).includes(r.last?.result) && typeof r.last.reason === 'string');
  return ok ? r : null;
}

/** First 12 hex digits: how checksums appear in messages. */
export function short(checksum: string | null | undefined): string {
  return checksum ? checksum.slice(0, 12) : '-';
}

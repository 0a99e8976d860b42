import { KeyedRecords, type MetaLevel } from './keyed-writer.js';

const STOP_REASONS = ['stop', 'restart', 'remove', 'shutdown', 'health'] as const;

/** A stop in progress: why, and when SIGKILL follows the SIGTERM already sent (Unix ms). */
export interface StopInProgress {
  reason: (typeof STOP_REASONS)[number];
  deadline: number;
  killed: boolean;
}

/** The persisted facts about a live process that let a restarted daemon re-adopt it. */
export interface RuntimeRecord {
  pid: number;
  startTime: number;
  startedAt: number;
  stopsecs: number;
  /** Set once svcd has signalled the process to stop, so that a crash keeps the deadline and the reason. */
  stopping?: StopInProgress;
}

function parseStopping(value: unknown): StopInProgress | undefined {
  const s = value as Partial<StopInProgress> | undefined;
  if (!s || !(STOP_REASONS as readonly string[]).includes(s.reason ?? '') || typeof s.deadline !== 'number' || typeof s.killed !== 'boolean') return undefined;
  return { reason: s.reason!, deadline: s.deadline, killed: s.killed };
}

/** Runtime records under `run:<id>` in store.meta, written behind the process controller. */
export class RuntimeStore extends KeyedRecords<RuntimeRecord> {
  constructor(meta: MetaLevel, onError?: (err: unknown) => void) {
    super(meta, 'run', parseRuntimeRecord, onError);
  }
}

function parseRuntimeRecord(v: unknown): RuntimeRecord | null {
  const r = v as Partial<RuntimeRecord>;
  if (typeof r.pid !== 'number' || typeof r.startTime !== 'number') return null;
  const { stopping, ...rest } = r as RuntimeRecord;
  const parsed = parseStopping(stopping);
  return parsed ? { ...rest, stopping: parsed } : rest;
}

import { KeyedRecords, type MetaLevel } from './keyed-writer.js';
import type { ProbeResult } from './observed.js';

/** A process's health verdict as the last svcd left it (written when the verdict turns). */
export interface HealthVerdictRecord {
  /** The process judged, by pid and start time (a re-adopted process keeps both). */
  pid: number;
  started_at: number;
  healthy: boolean;
  failures: number;
  successes: number;
  /** A probe of this process has passed (start_period's grace is over). */
  passed: boolean;
  /** The probe that turned the verdict. */
  last: ProbeResult | null;
}

/**
 * Health verdicts under `health:<id>` in store.meta, written behind the health controller each
 * time a verdict turns (not at every probe), so that a process re-adopted after a crash of
 * svcd is still Healthy or Unhealthy instead of judged again from nothing: an Unhealthy program
 * would otherwise be recorded Unhealthy a second time (notify and reactions act again), and a
 * Healthy one show Running until its first probe.
 */
export class HealthVerdicts extends KeyedRecords<HealthVerdictRecord> {
  constructor(meta: MetaLevel, onError?: (err: unknown) => void) {
    super(meta, 'health', parseRecord, onError);
  }
}

function parseRecord(value: unknown): HealthVerdictRecord | null {
  const r = value as Partial<HealthVerdictRecord> | null;
  if (typeof r?.pid !== 'number' || typeof r.started_at !== 'number' || typeof r.healthy !== 'boolean') return null;
  if (typeof r.failures !== 'number' || typeof r.successes !== 'number' || typeof r.passed !== 'boolean') return null;
  const last = r.last && typeof r.last.at === 'number' && typeof r.last.ok === 'boolean' && typeof r.last.message === 'string' ? r.last : null;
  return { pid: r.pid, started_at: r.started_at, healthy: r.healthy, failures: r.failures, successes: r.successes, passed: r.passed, last };
}

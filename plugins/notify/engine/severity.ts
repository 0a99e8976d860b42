import type { EventRecord, EventType } from '../../../state/events/types.js';
import type { Severity } from '../config/types.js';

const CRITICAL = new Set<EventType>(['process_fatal', 'memory_oom_kill', 'cron_spawn_failed', 'ota_failed', 'ota_rolled_back']);
const WARNING = new Set<EventType>(['process_backoff', 'process_unhealthy', 'health_restart', 'queue_full', 'memory_pressure']);
/** Signals a stop request sends: an exit by them is not a crash. */
const STOP_SIGNALS = new Set([2, 9, 15]);

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };

/**
 * The severity of an event (docs/notify.md, Severity): exits and cron runs are warnings only
 * when they failed (a non-zero code, or a signal other than a stop's).
 */
export function severityOf(record: Pick<EventRecord, 'event' | 'exit_code' | 'signal'>): Severity {
  if (CRITICAL.has(record.event)) return 'critical';
  if (WARNING.has(record.event)) return 'warning';
  if (record.event === 'process_exit' || record.event === 'cron_exit') {
    const failedCode = record.exit_code !== null && record.exit_code !== 0;
    const crashSignal = record.signal !== null && !STOP_SIGNALS.has(record.signal);
    return failedCode || crashSignal ? 'warning' : 'info';
  }
  return 'info';
}

import { constants } from 'node:os';
import type { ExitInfo } from '../os/port.js';

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, num]) => [num, name]));

const REASONS: Record<string, string> = {
  stop: 'stopped on request',
  restart: 'stopped for a restart',
  remove: 'stopped because the program was removed',
  shutdown: 'stopped by daemon shutdown',
  health: 'stopped for a restart by its failing health check',
  reload: 'stopped after a reload handed over to its new process',
  aborted: 'stopped because its reload failed (the new process of that reload)',
  crash: 'crashed',
  exit: 'exited',
};

/** The `msg` of a process_exit event: how it ended and why, in words. */
export function describeExit(exit: ExitInfo, reason: string, adopted: boolean): string {
  if (exit.error) return `spawn failed: ${exit.error}`;
  const how =
    exit.signal !== null
      ? `killed by signal ${exit.signal} (${SIGNAL_NAMES.get(exit.signal) ?? 'unknown'})`
      : exit.code !== null
        ? `exit code ${exit.code}`
        : adopted
          ? 'exit status unknown (process adopted after a daemon restart)'
          : 'exit status unknown';
  return `${REASONS[reason] ?? reason}: ${how}${exit.note ? ` (${exit.note})` : ''}`;
}

/**
 * How a program status is shown, the same in `svc ui` and the web dashboard: its tone (the
 * colour), its place when sorting by status, and whether its uptime means anything.
 */
export type StatusTone = 'good' | 'busy' | 'bad' | 'idle';

const TONES: Record<string, StatusTone> = {
  Running: 'good',
  Healthy: 'good',
  Scheduled: 'good',
  Starting: 'busy',
  Stopping: 'busy',
  Backoff: 'busy',
  Unhealthy: 'bad',
  Fatal: 'bad',
  Stopped: 'idle',
  Exited: 'idle',
};

export function statusTone(status: string): StatusTone {
  return TONES[status] ?? 'idle';
}

/** Sorting by status puts trouble first: bad, busy, good, idle. */
export function statusRank(status: string): number {
  return ['bad', 'busy', 'good', 'idle'].indexOf(statusTone(status));
}

/** Statuses with a live process, or one on its way (uptime, CPU and signals are meaningful). */
export function isAlive(status: string): boolean {
  return ['Running', 'Healthy', 'Unhealthy', 'Starting', 'Stopping'].includes(status);
}

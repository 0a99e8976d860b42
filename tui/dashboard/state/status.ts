/** How each program status is shown: its colour and its place when sorting by status. */
export type StatusTone = 'good' | 'busy' | 'bad' | 'idle';

const TONES: Record<string, StatusTone> = {
  Running: 'good',
  Healthy: 'good',
  Starting: 'busy',
  Stopping: 'busy',
  Backoff: 'busy',
  Unhealthy: 'bad',
  Fatal: 'bad',
  Stopped: 'idle',
  Exited: 'idle',
};

export const TONE_COLOR: Record<StatusTone, string> = { good: 'green', busy: 'yellow', bad: 'red', idle: 'gray' };

export function statusTone(status: string): StatusTone {
  return TONES[status] ?? 'idle';
}

export function statusColor(status: string): string {
  return TONE_COLOR[statusTone(status)];
}

/** Sorting by status puts trouble first: bad, busy, good, idle. */
export function statusRank(status: string): number {
  return ['bad', 'busy', 'good', 'idle'].indexOf(statusTone(status));
}

/** Statuses with a live process (uptime is meaningful). */
export function isActive(status: string): boolean {
  return ['Running', 'Healthy', 'Unhealthy', 'Starting', 'Stopping'].includes(status);
}

/** How a program status is shown: its tone (colour) and its place when sorting by status. */
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

/** Statuses with a live process (uptime and signals are meaningful). */
export function isAlive(status: string): boolean {
  return ['Running', 'Healthy', 'Unhealthy', 'Starting', 'Stopping'].includes(status);
}

/** The table's health cell: from the status when the program has a check, `-` otherwise. */
export function healthLabel(status: string, check: string | null): string {
  if (!check) return '-';
  if (status === 'Healthy') return 'ok';
  if (status === 'Unhealthy') return 'failing';
  return isAlive(status) ? 'pending' : '-';
}

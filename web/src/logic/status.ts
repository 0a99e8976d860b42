import { isAlive } from '../../../state/status-tone.js';

export { isAlive, statusRank, statusTone, type StatusTone } from '../../../state/status-tone.js';

/** The table's health cell: from the status when the program has a check, `-` otherwise. */
export function healthLabel(status: string, check: string | null): string {
  if (!check) return '-';
  if (status === 'Healthy') return 'ok';
  if (status === 'Unhealthy') return 'failing';
  return isAlive(status) ? 'pending' : '-';
}

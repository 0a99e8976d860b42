import { statusTone, type StatusTone } from '../../../state/status-tone.js';

export { isAlive, statusRank, statusTone } from '../../../state/status-tone.js';

export const TONE_COLOR: Record<StatusTone, string> = { good: 'green', busy: 'yellow', bad: 'red', idle: 'gray' };

export function statusColor(status: string): string {
  return TONE_COLOR[statusTone(status)];
}

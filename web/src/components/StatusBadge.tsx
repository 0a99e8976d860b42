import { statusTone } from '../logic/status.js';

/** A removed program whose process is still stopping reads `Removing` (the API keeps `Stopping`). */
export function StatusBadge({ status, removed }: { status: string; removed?: boolean }) {
  return <span className={`badge tone-${statusTone(status)}`}>{removed ? 'Removing' : status}</span>;
}

import { statusTone } from '../logic/status.js';

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge tone-${statusTone(status)}`}>{status}</span>;
}

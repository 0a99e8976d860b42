import type { EventType } from '../../../state/events/types.js';
import type { Notice } from '../engine/notice.js';

/** URLs never go into a message's text: the summary line is link-free (docs/notify.md). */
const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

function counts(map: Partial<Record<EventType, number>>): string {
  return Object.entries(map).map(([event, n]) => `${n} ${event}`).join(', ');
}

/**
 * The one line every payload carries: severity, host, program, event type, the repeat count
 * and window, the event's message, what inhibition folded in, and "and N more" when the rate
 * limit held messages back since the last one.
 */
export function summaryLine(n: Notice, host: string): string {
  const head = `[${n.severity.toUpperCase()}] ${host}:`;
  const more = n.suppressed.messages > 0 ? ` (and ${n.suppressed.messages} more suppressed: ${counts(n.suppressed.by_event)})` : '';
  if (n.kind === 'summary') return `${head} ${n.suppressed.messages} more ${n.suppressed.messages === 1 ? 'notification was' : 'notifications were'} suppressed by the rate limit: ${counts(n.suppressed.by_event)}`;
  const who = n.program_name ?? 'svcd';
  const secs = Math.max(1, Math.round((n.last_ts_ms - n.first_ts_ms) / 1000));
  const times = n.count > 1 ? ` x${n.count} in ${secs}s` : '';
  const folded = Object.keys(n.folded).length > 0 ? ` (after ${counts(n.folded)})` : '';
  const msg = (n.record?.msg ?? '').replace(URL_RE, '[link removed]').replace(/\s+/g, ' ').trim().slice(0, 300);
  return `${head} ${who} ${n.event}${times}${msg ? `: ${msg}` : ''}${folded}${more}`;
}

import type { EventRecord } from '../../../state/events/types.js';
import type { Channel } from '../config/types.js';
import type { SuppressionKernel } from '../native.js';
import { SEVERITY_RANK, severityOf } from './severity.js';

/**
 * Whether a channel wants an event: enabled, the event type listed (or no list), the program
 * matching one name or glob (or no list; daemon events have no program and pass only then),
 * and at least the channel's minimum severity. Notify's own events never match.
 */
export function channelWants(channel: Channel, record: EventRecord, kernel: Pick<SuppressionKernel, 'globMatch'>): boolean {
  if (!channel.enabled) return false;
  if (record.event.startsWith('notify_')) return false; // its own delivery records: never a loop

  if (channel.events.length > 0 && !channel.events.includes(record.event)) return false;
  if (channel.programs.length > 0) {
    const name = record.program_name;
    if (name === null || !channel.programs.some((p) => kernel.globMatch(p, name))) return false;
  }
  return SEVERITY_RANK[severityOf(record)] >= SEVERITY_RANK[channel.min_severity];
}

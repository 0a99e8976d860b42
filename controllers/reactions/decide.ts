import type { EventRecord } from '../../state/events/types.js';
import { globMatches } from '../../state/name-glob.js';
import { REACTION_EVENT_TYPES, type Reaction, type SkipReason } from './types.js';

/** Whether an event is one the reaction is configured for (type and program), enabled or not. */
export function matches(reaction: Reaction, record: Pick<EventRecord, 'event' | 'program_name'>): boolean {
  // A reaction's own records never match anything: no reaction can trigger itself or another.
  if (REACTION_EVENT_TYPES.includes(record.event)) return false;
  // "*" leaves out notify's delivery records: with notify sending reaction_* messages, every run
  // would be reported, the report recorded, and the record would run the reaction again. Named, they match.
  const listed = reaction.events.includes(record.event) || (reaction.events.includes('*') && !record.event.startsWith('notify_'));
  if (!listed) return false;
  if (reaction.programs === null) return true;
  const name = record.program_name;
  return name !== null && reaction.programs.some((p) => globMatches(p, name));
}

/** What the reactor knows of one reaction's runs (kept in memory, per reaction name). */
export interface ReactionRunState {
  running: number;
  /** Unix ms the last run started (test runs included), or null. */
  lastStartAt: number | null;
}

export type Decision = { run: true } | { run: false; reason: SkipReason; msg: string };

/**
 * Whether a matching event starts a run now. Test runs (`force`) ignore `enabled` and the
 * cooldown, but not the concurrency limit (it protects the host).
 */
export function decide(reaction: Reaction, state: ReactionRunState, now: number, force = false): Decision {
  if (!reaction.enabled && !force) return { run: false, reason: 'disabled', msg: 'disabled (enabled = false)' };
  if (state.running >= reaction.maxConcurrent) {
    return { run: false, reason: 'concurrency', msg: `${state.running} run(s) in flight (max_concurrent ${reaction.maxConcurrent})` };
  }
  if (!force && reaction.cooldownSecs > 0 && state.lastStartAt !== null) {
    const until = state.lastStartAt + reaction.cooldownSecs * 1000;
    if (now < until) return { run: false, reason: 'cooldown', msg: `in cooldown for ${Math.ceil((until - now) / 1000)} s more (cooldown_secs ${reaction.cooldownSecs})` };
  }
  return { run: true };
}

/** Every reaction an event triggers, in file order, with the decision for each. */
export function planReactions(reactions: readonly Reaction[], states: ReadonlyMap<string, ReactionRunState>, record: EventRecord, now: number): { reaction: Reaction; decision: Decision }[] {
  return reactions
    .filter((r) => matches(r, record))
    .map((reaction) => ({ reaction, decision: decide(reaction, states.get(reaction.name) ?? { running: 0, lastStartAt: null }, now) }));
}

import type { EventType } from '../../state/events/types.js';

export type { RunOutcome, RunRecord, SkipReason } from '../../state/reactions-view.js';

/** Event types a reaction may never match: its own records (no reaction triggers itself in a loop). */
export const REACTION_EVENT_TYPES: readonly EventType[] = ['reaction_started', 'reaction_finished', 'reaction_failed'];

/**
 * One `[[reaction]]` table of `conf/reactions.toml`, validated (docs/reactions.md, "Keys").
 * Paths are absolute.
 */
export interface Reaction {
  /** Unique, [A-Za-z0-9_.-]; names the log file and the metric label. */
  name: string;
  /** Event types that trigger it; `'*'` = every type except the reaction_* and notify_* ones. */
  events: readonly (EventType | '*')[];
  /**
   * Program names or globs (`*`, `?`, `[abc]`); null (key absent) matches every event, system
   * events included. Given, only events of a matching program name trigger it.
   */
  programs: readonly string[] | null;
  /** argv: path plus arguments, run directly; with `shell`, one element: a /bin/sh -c line. */
  command: readonly string[];
  shell: boolean;
  /** Working directory; default SVC_ROOT. */
  cwd: string;
  /** The run's process group is SIGKILLed after this long. Default 30, 1..3600. */
  timeoutSecs: number;
  /** Runs of this reaction at once; a match beyond it is skipped. Default 1, 1..64. */
  maxConcurrent: number;
  /** After a run starts, matches within this many seconds are skipped. Default 0 (none). */
  cooldownSecs: number;
  /** Extra environment variables for the run. */
  env: Readonly<Record<string, string>>;
  enabled: boolean;
}


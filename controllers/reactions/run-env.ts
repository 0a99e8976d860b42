import type { EventRecord } from '../../state/events/types.js';
import type { Reaction } from './types.js';

const str = (v: number | string | null) => (v === null ? '' : String(v));

/**
 * The environment of a reaction run: the daemon's own environment (PATH, HOME...), the
 * reaction's `env`, then the event (docs/reactions.md, "What a script gets"). Null fields are
 * empty strings. SVC_REACTION marks the process as a reaction run (never adopted as a program).
 */
export function reactionEnv(base: Readonly<Record<string, string | undefined>>, root: string, reaction: Reaction, record: EventRecord, test: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !k.startsWith('SVC_')) env[k] = v;
  Object.assign(env, reaction.env);
  Object.assign(env, {
    SVC_ROOT: root,
    SVC_REACTION: reaction.name,
    SVC_TEST: test ? '1' : '',
    SVC_EVENT: record.event,
    SVC_EVENT_ID: record.id,
    SVC_EVENT_TIME: new Date(record.ts_ms).toISOString(),
    SVC_EVENT_TS: String(record.ts),
    SVC_EVENT_TS_MS: String(record.ts_ms),
    SVC_PROGRAM_ID: str(record.program_id),
    SVC_PROGRAM_NAME: str(record.program_name),
    SVC_EXIT_CODE: str(record.exit_code),
    SVC_SIGNAL: str(record.signal),
    SVC_RETRY_COUNT: str(record.retry_count),
    SVC_DURATION_SECS: str(record.duration_secs),
    SVC_MSG: record.msg,
  });
  return env;
}

/** The argv to start: the command as given, or `/bin/sh -c <line>` with `shell = true`. */
export function reactionArgv(reaction: Reaction): { file: string; args: string[] } {
  if (reaction.shell) return { file: '/bin/sh', args: ['-c', reaction.command[0] ?? ''] };
  const [file = '', ...args] = reaction.command;
  return { file, args };
}

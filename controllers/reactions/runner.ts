import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../reconciler/clock.js';
import type { EventRecord, EventSink } from '../../state/events/types.js';
import type { OsPort } from '../os/port.js';
import { reactionArgv, reactionEnv } from './run-env.js';
import type { Reaction, RunOutcome, RunRecord } from './types.js';

export interface RunnerDeps {
  os: Pick<OsPort, 'runToCompletion'>;
  /** Fires when svcd stops and the runs still going have had their time: their groups are killed. */
  shutdown?: AbortSignal;
  events: EventSink;
  clock: Pick<Clock, 'now'>;
  root: string;
  logDir: string;
  baseEnv: Readonly<Record<string, string | undefined>>;
}

/** `<log_dir>/reactions/<name>.log`: stdout and stderr of every run, appended. */
export function reactionLogFile(logDir: string, name: string): string {
  return join(logDir, 'reactions', `${name}.log`);
}

/** Where a run's event record waits to be read as its stdin (removed when the run ends). */
function stdinFile(root: string, name: string, seq: number): string {
  return join(root, 'run', 'reactions', `${name}-${process.pid}-${seq}.json`);
}

/**
 * Carries out one run: records `reaction_started`, starts the command through the OS port
 * (its own process group, killed at timeout_secs) with the event as env vars and as JSON on
 * stdin, output appended to the reaction's log, then records `reaction_finished` or
 * `reaction_failed`. Never throws: every failure is the run's outcome.
 */
export async function runReaction(deps: RunnerDeps, reaction: Reaction, record: EventRecord, test: boolean, runId: number): Promise<RunRecord> {
  const startedAt = deps.clock.now();
  const about = { program_id: record.program_id, program_name: record.program_name };
  const tag = `reaction '${reaction.name}'${test ? ' (test run)' : ''}`;
  deps.events.emit({ event: 'reaction_started', ...about, msg: `${tag} started for ${record.event} (event ${record.id})` });
  const log = reactionLogFile(deps.logDir, reaction.name);
  const input = stdinFile(deps.root, reaction.name, runId);
  let result: { code: number | null; signal: number | null; error?: string; timedOut: boolean };
  try {
    await mkdir(join(deps.root, 'run', 'reactions'), { recursive: true });
    await writeFile(input, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    await mkdir(join(deps.logDir, 'reactions'), { recursive: true });
    await appendFile(log, `--- ${new Date(startedAt).toISOString()} ${tag} for ${record.event} (event ${record.id}) ---\n`);
    const { file, args } = reactionArgv(reaction);
    const env = reactionEnv(deps.baseEnv, deps.root, reaction, record, test);
    result = await deps.os.runToCompletion({ file, args, cwd: reaction.cwd, env, stdoutPath: log, stderrPath: log, stdinPath: input }, reaction.timeoutSecs * 1000, deps.shutdown);
  } catch (err) {
    result = { code: null, signal: null, error: (err as Error).message, timedOut: false };
  } finally {
    await rm(input, { force: true }).catch(() => undefined); // a leftover is harmless; run/ is ours
  }
  const finishedAt = deps.clock.now();
  const duration = Math.round(finishedAt - startedAt) / 1000;
  const outcome: RunOutcome = result.error ? 'spawn_failed' : result.timedOut ? 'timeout' : result.code === 0 ? 'ok' : 'failed';
  const killedAtShutdown = result.timedOut && deps.shutdown?.aborted === true;
  const msg = killedAtShutdown ? `killed after ${duration} s: svcd stopped while it ran (process group SIGKILLed)` : describe(outcome, result, reaction, duration);
  deps.events.emit({ event: outcome === 'ok' ? 'reaction_finished' : 'reaction_failed', ...about, exit_code: result.code, signal: result.signal, duration_secs: duration, msg: `${tag} ${msg}` });
  return { event_id: record.id, event: record.event, program_name: record.program_name, started_at: startedAt, finished_at: finishedAt, outcome, exit_code: result.code, signal: result.signal, duration_secs: duration, msg, test };
}

function describe(outcome: RunOutcome, r: { code: number | null; signal: number | null; error?: string }, reaction: Reaction, duration: number): string {
  switch (outcome) {
    case 'ok':
      return `exited 0 after ${duration} s`;
    case 'failed':
      return r.code !== null ? `failed: exit code ${r.code} after ${duration} s` : `failed: killed by signal ${r.signal} after ${duration} s`;
    case 'timeout':
      return `killed after timeout_secs ${reaction.timeoutSecs} (process group SIGKILLed)`;
    case 'spawn_failed':
      return `could not start: ${r.error}`;
  }
}

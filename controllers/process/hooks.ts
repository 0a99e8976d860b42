import type { LastExit } from '../../state/observed.js';
import type { OsPort, SpawnSpec } from '../os/port.js';
import { splitCommand } from '../../state/command-line.js';

/** A hook may run this long before its process group is killed. */
export const HOOK_TIMEOUT_MS = 60_000;

export type HookName = 'pre_start' | 'post_stop';

/**
 * Runs a program hook in the program's environment, working directory and identity, with its
 * output appended to the program's log files. Returns null on success, or why it failed.
 */
export async function runHook(os: OsPort, name: HookName, command: string, program: SpawnSpec, exit?: LastExit): Promise<string | null> {
  let words: string[];
  try {
    words = splitCommand(command);
  } catch (err) {
    return `hooks.${name}: ${(err as Error).message}`;
  }
  const [file, ...args] = words;
  if (!file) return `hooks.${name}: empty command`;
  const env: Record<string, string> = { ...program.env, SVC_HOOK: name };
  if (exit) {
    env.SVC_EXIT_CODE = exit.exit_code === null ? '' : String(exit.exit_code);
    env.SVC_EXIT_SIGNAL = exit.signal === null ? '' : String(exit.signal);
    env.SVC_EXIT_REASON = exit.reason;
  }
  const result = await os.runToCompletion({ ...program, file, args, env }, HOOK_TIMEOUT_MS);
  if (result.error) return `hooks.${name} failed: ${result.error}`;
  if (result.timedOut) return `hooks.${name} killed after ${HOOK_TIMEOUT_MS / 1000} s`;
  if (result.code !== 0) return `hooks.${name} failed: ${result.code !== null ? `exit code ${result.code}` : `signal ${result.signal}`}`;
  return null;
}

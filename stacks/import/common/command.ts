import { splitCommand } from '../../../state/command-line.js';

/**
 * What only a shell understands: variables, command substitution, pipes, lists, redirections,
 * globs, braces, `~`, comments and leading `VAR=value` assignments. svc splits a `command` like a
 * shell splits words (quotes and backslashes) and nothing more (docs/api.md).
 */
const SHELL_SYNTAX = /[$`|&;<>(){}*?[\]~#\n]|^\s*[A-Za-z_][A-Za-z0-9_]*=/;

/** Whether a command line needs a shell to mean what it says. */
export function needsShell(line: string): boolean {
  if (SHELL_SYNTAX.test(line)) return true;
  try {
    splitCommand(line);
    return false;
  } catch {
    return true; // an unterminated quote: let the shell report it, as the source tool would
  }
}

/**
 * The svc `command`/`args` for a command line that the source tool ran through `shell` (for
 * example `["/bin/sh", "-c"]`): the line itself when svc's word splitting gives the same words,
 * else the shell with the line as its script.
 */
export function commandFields(line: string, shell: readonly string[]): { command: string; args?: string[] } {
  const trimmed = line.trim();
  if (!needsShell(trimmed)) return { command: trimmed };
  return { command: shell[0] ?? '/bin/sh', args: [...shell.slice(1), trimmed] };
}

import type { CommanderError } from 'commander';
import { AddressError } from '../client/address.js';
import { ApiError } from '../client/errors.js';
import { CliError } from './errors.js';

/**
 * The exit status of `svc` (docs/cli.md): 0 success, 1 an API or runtime error, 2 a usage error
 * (unknown command or option, missing argument, invalid choice, unreadable input file), 3 svcd
 * not reachable (nothing answers at the address, so a script can tell "start svcd" from "svcd said no").
 */
export const EXIT = { ok: 0, error: 1, usage: 2, unreachable: 3 } as const;

/** Commander's own outcomes: help and version are successes, everything else is usage. */
export function commanderExitCode(err: CommanderError): number {
  // `svc token` without a subcommand prints help as an error (exit code 1 from commander): usage.
  return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
}

/** The exit status for an error that ends a command. */
export function errorExitCode(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof AddressError) return EXIT.usage;
  if (err instanceof ApiError) return err.kind === 'unreachable' ? EXIT.unreachable : EXIT.error;
  return EXIT.error;
}

/** An error as `svc --json` prints it on stderr: one JSON object, never a stack trace. */
export function jsonError(message: string, exitCode: number, err?: unknown): string {
  const api = err instanceof ApiError ? { kind: err.kind, status: err.status } : {};
  return `${JSON.stringify({ error: { message, exit_code: exitCode, ...api } })}\n`;
}

/**
 * Errors written for a person (shown as one line); anything else is a bug and keeps its stack.
 * A failed system call is the user's environment, not a bug: an `-o`/`--out` path that cannot be
 * written (ENOENT, EACCES, ENOTDIR, ENOSPC), whose message names the call and the path.
 */
export function isExpected(err: unknown): boolean {
  return err instanceof CliError || err instanceof ApiError || err instanceof AddressError || isSystemError(err);
}

function isSystemError(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | null;
  return err instanceof Error && typeof e?.syscall === 'string' && typeof e.code === 'string';
}

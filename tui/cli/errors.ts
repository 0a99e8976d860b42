import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { onKernelFs } from '../../conf/kernel-fs.js';
/** A failure the CLI prints as one line (no stack trace) before exiting with `exitCode`. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    /** 1: an API or runtime error; 2: a usage error. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * A file argument that is a directory, in words (`svc check stacks/` read as "unknown format",
 * which sent users looking at file names); null for anything else.
 */
export function directoryProblem(file: string): string | null {
  try {
    if (statSync(file).isDirectory()) return `${file}: is a directory; name the files in it (for example ${join(file, '*.toml')})`;
  } catch {
    // absent or unreadable: reading it says so
  }
  return null;
}

/** A file argument whose name gives no stack format (a directory is said to be one). */
export function unknownFormat(file: string): CliError {
  return new CliError(directoryProblem(file) ?? `${file}: unknown format (use .json, .toml, .yaml or .yml)`, 2);
}

/**
 * Creates a folder the user named (`option`, e.g. `--out`) with its parents; one under /proc or
 * /sys is a usage error (Node's recursive mkdir never returns there).
 */
export function makeFolder(dir: string, option: string, mode?: number): void {
  if (onKernelFs(dir)) throw new CliError(`${option} ${dir}: a folder under /proc or /sys cannot hold files`, 2);
  mkdirSync(dir, { recursive: true, mode });
}

import { statSync } from 'node:fs';
import type { SpawnSpec } from './port.js';

/**
 * A readable reason for a spawn that failed, naming the field at fault. Never echoes Node's own
 * message for bad arguments: it quotes the value, which may be an environment variable's secret.
 */
export function describeSpawnError(spec: Pick<SpawnSpec, 'file' | 'cwd'>, error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_INVALID_ARG_VALUE' || code === 'ERR_INVALID_ARG_TYPE') return `${fieldOfArgError(error.message)}: ${argProblem(error.message)}`;
  const cwdProblem = problemWithCwd(spec.cwd);
  if (cwdProblem && (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES')) return cwdProblem;
  if (code === 'ENOENT') return `command not found: ${spec.file} (cwd ${spec.cwd})`;
  if (code === 'EACCES') return `permission denied: ${spec.file}`;
  return `${spec.file}: ${code ?? error.message}`;
}

/** Why `cwd` cannot be a working directory, or null when it can (as far as stat tells). */
function problemWithCwd(cwd: string): string | null {
  try {
    return statSync(cwd).isDirectory() ? null : `cwd ${cwd} is not a directory`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `cwd ${cwd} does not exist`;
    return `cwd ${cwd}: ${code ?? 'cannot be used'}`;
  }
}

/** `options.cwd` -> cwd, `options.env['X']` -> env.X, `args[0]` -> args[0], `file` -> command. */
function fieldOfArgError(message: string): string {
  const env = /options\.env\['([^']*)'\]/.exec(message);
  if (env) return `env.${env[1]}`;
  const named = /(?:argument|property) '([^']+)'/.exec(message) ?? /"([^"]+)" (?:argument|property)/.exec(message);
  const field = (named?.[1] ?? 'spawn').replace(/^options\./, '');
  return field === 'file' ? 'command' : field;
}

function argProblem(message: string): string {
  if (/null bytes/.test(message)) return 'must not contain a NUL byte';
  if (/int32/.test(message)) return 'is out of range';
  return 'is invalid';
}

import { isAbsolute, resolve } from 'node:path';
import { splitCommand } from '../../state/command-line.js';
import type { ProgramConfig } from '../../state/program.js';
import type { ExportContext, ExportFinding } from './types.js';

/** A program's process with every path made absolute, as svcd would start it. */
export interface ResolvedProcess {
  /** The executable (absolute when it could be resolved) and its arguments. */
  argv: string[];
  cwd: string;
  envFile: string | null;
  stdout: string | null;
  stderr: string | null;
}

/**
 * Resolves a program the way svcd's spawn does (controllers/process/spawn-spec.ts): `command`
 * split like a shell unless `args` is given, `cwd` under `$SVC_ROOT`, `env_file` under
 * `$SVC_ROOT`, custom log paths under `log_dir`; an executable without a slash is looked up in
 * PATH (targets want absolute paths), one with a slash is relative to `cwd`.
 */
export function resolveProcess(config: ProgramConfig, ctx: ExportContext, report: (f: ExportFinding) => void): ResolvedProcess {
  const cwd = config.cwd ? resolve(ctx.root, config.cwd) : ctx.root;
  let words: string[];
  try {
    words = config.args ? [config.command, ...config.args] : splitCommand(config.command);
  } catch (err) {
    report({ program: config.name, field: 'command', kind: 'unexpressible', message: (err as Error).message });
    words = [config.command];
  }
  const log = (path: string | undefined) => (path ? (isAbsolute(path) ? path : resolve(ctx.logDir, path)) : null);
  return {
    argv: resolveArgv(words, cwd, ctx, (message) => report({ program: config.name, field: 'command', kind: 'approximated', message })),
    cwd,
    envFile: config.env_file ? resolve(ctx.root, config.env_file) : null,
    stdout: log(config.stdout_logfile),
    stderr: log(config.stderr_logfile),
  };
}

/**
 * The executable of a command's words made absolute as svcd's spawn would find it: relative to
 * `cwd` when it has a slash, else through PATH (`note` says when it is not found there).
 */
export function resolveArgv(words: string[], cwd: string, ctx: ExportContext, note: (message: string) => void): string[] {
  const [file = '', ...args] = words;
  if (file.includes('/')) return [isAbsolute(file) ? file : resolve(cwd, file), ...args];
  const found = ctx.resolveExecutable(file);
  if (!found) note(`'${file}' is not in PATH here; written as is (the target may need an absolute path)`);
  return [found ?? file, ...args];
}

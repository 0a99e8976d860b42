import { isAbsolute, resolve } from 'node:path';
import { splitCommand } from '../../controllers/process/command-line.js';
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
  const [file = config.command, ...args] = words;
  let executable = file;
  if (file.includes('/')) executable = isAbsolute(file) ? file : resolve(cwd, file);
  else {
    const found = ctx.resolveExecutable(file);
    if (found) executable = found;
    else report({ program: config.name, field: 'command', kind: 'approximated', message: `'${file}' is not in PATH here; written as is (the target may need an absolute path)` });
  }
  const log = (path: string | undefined) => (path ? (isAbsolute(path) ? path : resolve(ctx.logDir, path)) : null);
  return {
    argv: [executable, ...args],
    cwd,
    envFile: config.env_file ? resolve(ctx.root, config.env_file) : null,
    stdout: log(config.stdout_logfile),
    stderr: log(config.stderr_logfile),
  };
}

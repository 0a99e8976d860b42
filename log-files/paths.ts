import { join } from 'node:path';
import type { ProgramConfig } from '../state/program.js';
import { resolveLogPath } from '../state/schema/log-path.js';

/** Where a program's stdout and stderr go: `{log_dir}/{uuid}.out|.err` or its custom paths. */
export function logPaths(id: string, config: Pick<ProgramConfig, 'stdout_logfile' | 'stderr_logfile'>, logDir: string) {
  return {
    stdout: config.stdout_logfile ? resolveLogPath(config.stdout_logfile, logDir) : join(logDir, `${id}.out`),
    stderr: config.stderr_logfile ? resolveLogPath(config.stderr_logfile, logDir) : join(logDir, `${id}.err`),
  };
}

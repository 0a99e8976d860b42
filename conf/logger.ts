import { LogFileSink, type LogFileOptions } from './log-file.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Structured daemon log: one JSON object per line, to stderr and to `{log_dir}/svcd.log`. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  close(): Promise<void>;
}

/**
 * Why stderr stopped taking lines (EPIPE: the pipe's reader went away; EIO: the terminal hung
 * up), or null while it takes them. Without a listener, Node turns that error into an uncaught
 * exception: svcd ended at its next log line, its programs left running unsupervised.
 */
let stderrFailed: string | null = null;
let watchingStderr = false;

/** One log line as svcd writes it: JSON with the time, the level and the message first. */
function jsonLine(level: Level, msg: string, fields?: Record<string, unknown>): string {
  return `${JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields })}\n`;
}

function toStderrWhileOpen(line: string): void {
  if (!watchingStderr) {
    watchingStderr = true;
    process.stderr.on('error', (err: NodeJS.ErrnoException) => (stderrFailed ??= err.code ?? err.message));
  }
  if (stderrFailed === null) process.stderr.write(line);
}

export function createLogger(opts: { file?: string; level?: Level; stderr?: boolean; fileOptions?: LogFileOptions } = {}): Logger {
  const min = RANK[opts.level ?? 'info'];
  const toStderr = opts.stderr !== false;
  // A full disk must neither stop the daemon nor stop its log for good (conf/log-file.ts).
  const file = opts.file
    ? new LogFileSink(opts.file, {
        onChange: (working, code) => {
          if (toStderr) toStderrWhileOpen(jsonLine('warn', working ? `${opts.file}: writing again` : `${opts.file}: cannot write (${code}); lines go to stderr only until it recovers`));
        },
        ...opts.fileOptions,
      })
    : null;
  let toldStderrGone = false;
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < min) return;
    const line = jsonLine(level, msg, fields);
    if (toStderr) toStderrWhileOpen(line);
    if (toStderr && stderrFailed !== null && !toldStderrGone) {
      toldStderrGone = true;
      file?.write(jsonLine('warn', `stderr cannot be written (${stderrFailed}: its reader went away); the daemon log goes on in this file only`));
    }
    file?.write(line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    close: async () => file?.close(),
  };
}

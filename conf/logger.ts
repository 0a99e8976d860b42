import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

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

export function createLogger(opts: { file?: string; level?: Level; stderr?: boolean } = {}): Logger {
  const min = RANK[opts.level ?? 'info'];
  let stream: WriteStream | null = null;
  if (opts.file) {
    mkdirSync(dirname(opts.file), { recursive: true });
    stream = createWriteStream(opts.file, { flags: 'a' });
    stream.on('error', () => {
      stream = null; // a broken log file must not take the daemon down
    });
  }
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < min) return;
    const line = `${JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields })}\n`;
    if (opts.stderr !== false) process.stderr.write(line);
    stream?.write(line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    close: () => new Promise((resolve) => (stream ? stream.end(resolve) : resolve())),
  };
}

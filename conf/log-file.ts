import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The file operations the sink needs (a fake in unit tests fills the disk on request). */
export interface AppendFs {
  open(path: string): number;
  /** Writes some of `buf` at the end of the file; returns how many bytes were written, or throws (ENOSPC). */
  write(fd: number, buf: Buffer): number;
  close(fd: number): void;
  /** Whether `path` still names the file open as `fd` (false once it was removed, or renamed and replaced). */
  sameFile?(fd: number, path: string): boolean;
}

export const realAppendFs: AppendFs = {
  open(path) {
    mkdirSync(dirname(path), { recursive: true });
    return openSync(path, 'a', 0o640);
  },
  write: (fd, buf) => writeSync(fd, buf),
  close: (fd) => closeSync(fd),
  sameFile(fd, path) {
    const named = statSync(path, { throwIfNoEntry: false });
    const open = fstatSync(fd);
    return named !== undefined && named.ino === open.ino && named.dev === open.dev;
  },
};

export interface LogFileOptions {
  fs?: AppendFs;
  now?: () => number;
  /** After a failed write, lines are counted, not tried, for this long (default 1 s). */
  retryMs?: number;
  /** Told once when writing starts failing and once when it works again (the daemon says it on stderr). */
  onChange?: (working: boolean, code: string) => void;
  /** How often (at most) a write checks that the path still names the open file (default 1 s). */
  checkMs?: number;
}

/**
 * The daemon's own log file, which must survive a full disk: a failed write (ENOSPC, EIO, a file
 * removed) does not stop it for good. Lines are counted while it fails; at most once per retryMs the
 * file is reopened and written again, and the first line that gets through is preceded by a notice
 * of how many lines were lost (and a newline if the failure tore a line in half). Writes are
 * synchronous: a daemon log line is small, and the outcome must be known to count what was lost.
 * A file removed (`rm svcd.log` to free space) or renamed away (logrotate without copytruncate)
 * takes writes without failing; a write at most once per checkMs sees that the path names another
 * file or none, and the log goes on in a new file at the path.
 */
export class LogFileSink {
  private fd: number | null = null;
  private dropped = 0;
  private torn = false;
  private code = '';
  private retryAt = 0;
  private checkAt = 0;
  private readonly fs: AppendFs;
  private readonly now: () => number;

  constructor(
    private readonly path: string,
    private readonly opts: LogFileOptions = {},
  ) {
    this.fs = opts.fs ?? realAppendFs;
    this.now = opts.now ?? Date.now;
  }

  write(line: string): void {
    if (this.dropped > 0 && this.now() < this.retryAt) {
      this.dropped++;
      return;
    }
    const failing = this.dropped > 0;
    const text = failing ? `${this.torn ? '\n' : ''}${this.notice()}${line}` : line;
    const buf = Buffer.from(text);
    let written = 0;
    try {
      this.followPath();
      this.fd ??= this.fs.open(this.path);
      while (written < buf.length) written += this.fs.write(this.fd, buf.subarray(written));
    } catch (err) {
      this.fail((err as NodeJS.ErrnoException).code ?? 'EIO', written > 0);
      return;
    }
    if (failing) this.opts.onChange?.(true, this.code);
    this.dropped = 0;
    this.torn = false;
  }

  close(): void {
    if (this.fd !== null) this.closeQuietly();
  }

  /** Drops the open file when the path no longer names it, so the next open writes at the path. */
  private followPath(): void {
    if (this.fd === null || !this.fs.sameFile || this.now() < this.checkAt) return;
    this.checkAt = this.now() + (this.opts.checkMs ?? 1000);
    if (!this.fs.sameFile(this.fd, this.path)) this.closeQuietly();
  }

  private fail(code: string, tornNow: boolean): void {
    if (this.dropped === 0) this.opts.onChange?.(false, code);
    this.dropped++;
    this.code = code;
    this.torn ||= tornNow;
    this.retryAt = this.now() + (this.opts.retryMs ?? 1000);
    this.closeQuietly(); // reopened at the next try: also follows a file that was removed
  }

  private closeQuietly(): void {
    try {
      if (this.fd !== null) this.fs.close(this.fd);
    } catch {
      // closing a descriptor of a failed file can fail too; it is released either way
    }
    this.fd = null;
  }

  private notice(): string {
    const msg = `svcd.log: ${this.dropped} line${this.dropped === 1 ? ' was' : 's were'} not written while the log file failed (${this.code})`;
    return `${JSON.stringify({ ts: new Date(this.now()).toISOString(), level: 'warn', msg })}\n`;
  }
}

import { watch, type FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export interface FollowOptions {
  /** Fallback poll interval; fs.watch events usually come first. Default 250 ms. */
  pollMs?: number;
  /** A line longer than this is emitted in pieces. Default 64 KiB. */
  maxLineBytes?: number;
  /** Bytes read per step while catching up. Default 1 MiB. */
  chunkBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Follows one log file written by a program (O_APPEND): emits complete new lines as they appear,
 * starting at the end of the file as it is when `start` resolves. Change is noticed by fs.watch
 * and by a fallback poll of the size; only new bytes are read. A partial last line is held until
 * its newline arrives. When the file shrinks (copy+truncate rotation) or is replaced (new inode),
 * reading restarts from offset 0. A missing file is waited for.
 *
 * Limit: if the file is truncated and regrows past the old offset between two checks, the
 * truncation goes unnoticed and the bytes before the old offset are skipped.
 */
export class FileFollower {
  private position = 0;
  private inode = 0;
  private partial: Buffer = Buffer.alloc(0);
  private watcher: FSWatcher | null = null;
  private poll: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly path: string,
    /** Whole lines; or, with `continues`, pieces of one long line that goes on in the next call. */
    private readonly onLines: (lines: string[], continues: boolean) => void,
    private readonly opts: FollowOptions = {},
  ) {}

  async start(): Promise<void> {
    const s = await stat(this.path).catch(() => null);
    if (this.stopped) return; // stopped while starting: arm nothing
    this.position = s?.size ?? 0;
    this.inode = s?.ino ?? 0;
    this.poll = setInterval(() => this.check(), this.opts.pollMs ?? 250);
    this.poll.unref();
    this.watchFile();
  }

  stop(): void {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    this.watcher?.close();
    this.watcher = null;
  }

  /** Reads whatever is new; overlapping calls collapse into one more pass. */
  check(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.readNew()
      .catch(() => undefined) // a vanished file is retried at the next poll
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.check();
        }
      });
  }

  private watchFile(): void {
    if (this.watcher || this.stopped) return;
    try {
      this.watcher = watch(this.path, { persistent: false }, () => this.check());
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = null; // the poll re-creates it
      });
    } catch {
      this.watcher = null; // not there yet: the poll keeps checking
    }
  }

  private async readNew(): Promise<void> {
    let s;
    try {
      s = await stat(this.path);
    } catch {
      this.restartFromZero(0); // gone (renamed away); read the next file from its start
      this.watcher?.close();
      this.watcher = null;
      return;
    }
    if (s.ino !== this.inode) {
      this.restartFromZero(s.ino); // replaced by a new file
      this.watcher?.close();
      this.watcher = null;
    } else if (s.size < this.position) {
      this.restartFromZero(s.ino); // truncated in place (copy+truncate rotation)
    }
    this.watchFile();
    if (s.size <= this.position) return;
    const handle = await open(this.path, 'r');
    try {
      const chunk = Buffer.alloc(Math.min(this.opts.chunkBytes ?? 1 << 20, s.size - this.position));
      while (!this.stopped && this.position < s.size) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, s.size - this.position), this.position);
        if (bytesRead === 0) break;
        this.position += bytesRead;
        this.split(chunk.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
  }

  private restartFromZero(inode: number): void {
    this.position = 0;
    this.inode = inode;
    this.partial = Buffer.alloc(0);
  }

  private split(bytes: Buffer): void {
    const max = this.opts.maxLineBytes ?? 64 * 1024;
    let data = this.partial.length > 0 ? Buffer.concat([this.partial, bytes]) : bytes;
    const lines: string[] = [];
    let nl;
    while ((nl = data.indexOf(NEWLINE)) !== -1) {
      const end = nl > 0 && data[nl - 1] === 0x0d ? nl - 1 : nl;
      lines.push(data.toString('utf8', 0, end));
      data = data.subarray(nl + 1);
    }
    const pieces: string[] = [];
    while (data.length >= max) {
      const cut = utf8Boundary(data, max);
      pieces.push(data.toString('utf8', 0, cut));
      data = data.subarray(cut);
    }
    this.partial = Buffer.from(data); // copy: the chunk buffer is reused
    if (lines.length > 0) this.onLines(lines, false);
    if (pieces.length > 0) this.onLines(pieces, true);
  }
}

/** `at`, or the start of the UTF-8 character `at` falls inside, so a piece never splits one. */
function utf8Boundary(data: Buffer, at: number): number {
  let cut = at;
  while (cut > at - 3 && cut > 1 && ((data[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut;
}

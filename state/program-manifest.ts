import { open, readFile, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** The file's name inside the LevelDB directory; LevelDB leaves names it does not know alone. */
export const MANIFEST_FILE = 'SVC-PROGRAMS';

/** The manifest cannot be read: a line before its last one is damaged. */
export class ManifestDamaged extends Error {
  override name = 'ManifestDamaged';
}

/** One appended line: a program listed (added or renamed) or no longer listed. */
export type ManifestLine = { add: string; name: string } | { del: string };

/**
 * The id and name of every program, in a small file next to LevelDB's own files, so that a
 * program lost inside LevelDB (a damaged table file, a log cut short), which LevelDB itself
 * does not notice, is noticed at open. It lives in `state.db/`, so a backup or a move of the
 * store carries it along.
 *
 * The file is a snapshot line (`{"version":2,"programs":{id: name}}`, written through a synced
 * temporary file and a rename) followed by appended lines (`["+",id,name]`, `["-",id]`), each
 * batch made durable by one synchronous write: a group of writes that adds programs costs a few lines and
 * one sync, not a rewrite of every program. A last line without its newline is an append cut off
 * by a crash, whose write was never acknowledged: it is ignored. Version 1 files (the snapshot
 * alone, no newline) read the same way.
 */
export class ProgramManifest {
  private appender: FileHandle | null = null;
  /** Lines appended since the last snapshot (the keeper compacts when they outgrow the programs). */
  appended = 0;

  constructor(private readonly dir: string) {}

  get file(): string {
    return join(this.dir, MANIFEST_FILE);
  }

  /** The listed programs (id -> name), or null when there is no manifest yet (a store from before it existed). */
  async read(): Promise<Map<string, string> | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const segments = text.split('\n');
    // The last segment is empty after a complete line, and a torn append otherwise.
    segments.pop();
    const snapshot = this.parse(segments.length === 0 ? text : segments[0], 0) as { programs?: Record<string, string> };
    if (snapshot === null || typeof snapshot.programs !== 'object' || snapshot.programs === null) throw this.damaged(0);
    const programs = new Map(Object.entries(snapshot.programs));
    for (let i = 1; i < segments.length; i++) {
      const line = this.parse(segments[i], i);
      if (Array.isArray(line) && line[0] === '+' && typeof line[1] === 'string' && typeof line[2] === 'string') programs.set(line[1], line[2]);
      else if (Array.isArray(line) && line[0] === '-' && typeof line[1] === 'string') programs.delete(line[1]);
      else throw this.damaged(i);
    }
    return programs;
  }

  /** Replaces the manifest atomically and durably (temporary file, fsync, rename, fsync of the directory). */
  async write(programs: Iterable<[string, string]>): Promise<void> {
    await this.closeAppender();
    const tmp = `${this.file}.tmp`;
    const file = await open(tmp, 'w');
    try {
      await file.writeFile(`${JSON.stringify({ version: 2, programs: Object.fromEntries(programs) })}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, this.file);
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    this.appended = 0;
  }

  /**
   * Appends lines, durable when it resolves (the file exists: `write` made it). The file is open
   * with O_APPEND|O_SYNC, so one write is one round trip to libuv's thread pool, not a write and
   * an fdatasync. A failure may leave part of a line behind: the caller must `write` before
   * appending again.
   */
  async append(lines: readonly ManifestLine[]): Promise<void> {
    if (lines.length === 0) return;
    const text = lines.map((l) => `${JSON.stringify('add' in l ? ['+', l.add, l.name] : ['-', l.del])}\n`).join('');
    const bytes = Buffer.from(text);
    try {
      this.appender ??= await open(this.file, 'as');
      // A disk that fills mid-line takes part of it and returns a short count, not an error:
      // write the rest, so that the disk's refusal (ENOSPC) is thrown, not a torn line left behind.
      for (let at = 0; at < bytes.length; ) {
        const { bytesWritten } = await this.appender.write(bytes, at);
        if (bytesWritten === 0) throw new Error(`${this.file}: the append wrote nothing`);
        at += bytesWritten;
      }
      this.appended += lines.length;
    } catch (err) {
      await this.closeAppender();
      throw err;
    }
  }

  /** Closes the file kept open for appends. */
  async close(): Promise<void> {
    await this.closeAppender();
  }

  private async closeAppender(): Promise<void> {
    const handle = this.appender;
    this.appender = null;
    await handle?.close().catch(() => undefined);
  }

  private parse(line: string, index: number): unknown {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw this.damaged(index);
    }
  }

  private damaged(line: number): Error {
    return new ManifestDamaged(`${this.file} is not a program manifest (line ${line + 1} is damaged)`);
  }
}

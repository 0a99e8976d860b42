import { statSync } from 'node:fs';
import { copyFile, rename, truncate, unlink } from 'node:fs/promises';
import type { Clock } from '../reconciler/clock.js';
import { truncateInPlace, type InPlaceRotation } from './truncate-in-place.js';

/**
 * Size-based rotation by copy and truncate: programs hold their log files open with O_APPEND,
 * so the file is copied to `.1` (older copies shift to `.2` … `.keep`) and truncated in place;
 * the program keeps writing at the new end. A few lines written during the copy may be lost,
 * the usual price of copytruncate. When the copy fails (a full disk: the copy needs the space
 * rotation is meant to free), the file is truncated in place keeping its newest bytes, and says so.
 */
export class LogRotator {
  private cancel: (() => void) | null = null;
  private stopped = false;
  private pass: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: {
      clock: Clock;
      files: () => string[];
      maxBytes: number;
      keep: number;
      intervalMs: number;
      onError?: (file: string, err: unknown) => void;
      /** A file that could not be copied and was shrunk in place instead. */
      onInPlace?: (file: string, info: InPlaceRotation) => void;
    },
  ) {}

  start(): void {
    if (this.deps.maxBytes <= 0) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  /** Resolves when the pass in progress (if any) is done. */
  settled(): Promise<void> {
    return this.pass;
  }

  async checkNow(): Promise<void> {
    for (const file of this.deps.files()) {
      try {
        // statSync: ten times cheaper than the promise form for a pass over every log file, and a
        // local stat does not block; only the rare rotation itself is asynchronous.
        const { size } = statSync(file);
        if (size <= this.deps.maxBytes) continue;
        const inPlace = await rotate(file, this.deps.keep, { tailBytes: tailBytesFor(this.deps.maxBytes) });
        if (inPlace) this.deps.onInPlace?.(file, inPlace);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.deps.onError?.(file, err);
      }
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.cancel = this.deps.clock.setTimer(this.deps.intervalMs, () => {
      this.pass = this.checkNow().finally(() => this.schedule());
    });
  }
}

/** What an in-place rotation keeps: a quarter of log_max_bytes, at most 1 MiB (it is read into memory). */
export function tailBytesFor(maxBytes: number): number {
  return Math.min(Math.floor(maxBytes / 4), 1024 * 1024);
}

/**
 * Rotates one file. Returns null after a normal copy-and-truncate, or what was done when the copy
 * failed and the file was truncated in place instead (the partial copy is removed: it only takes space).
 */
export async function rotate(file: string, keep: number, opts: { tailBytes?: number; copy?: (from: string, to: string) => Promise<void> } = {}): Promise<InPlaceRotation | null> {
  if (keep > 0) {
    await unlink(`${file}.${keep}`).catch(() => undefined);
    for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(() => undefined);
    try {
      await (opts.copy ?? copyFile)(file, `${file}.1`);
    } catch (err) {
      await unlink(`${file}.1`).catch(() => undefined);
      return truncateInPlace(file, opts.tailBytes ?? 64 * 1024, `the copy to .1 failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  await truncate(file, 0);
  return null;
}

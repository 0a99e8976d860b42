import { statSync } from 'node:fs';
import { copyFile, rename, truncate, unlink } from 'node:fs/promises';
import type { Clock } from '../reconciler/clock.js';

/**
 * Size-based rotation by copy and truncate: programs hold their log files open with O_APPEND,
 * so the file is copied to `.1` (older copies shift to `.2` … `.keep`) and truncated in place;
 * the program keeps writing at the new end. A few lines written during the copy may be lost,
 * the usual price of copytruncate.
 */
export class LogRotator {
  private cancel: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly deps: { clock: Clock; files: () => string[]; maxBytes: number; keep: number; intervalMs: number; onError?: (file: string, err: unknown) => void },
  ) {}

  start(): void {
    if (this.deps.maxBytes <= 0) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  async checkNow(): Promise<void> {
    for (const file of this.deps.files()) {
      try {
        // statSync: ten times cheaper than the promise form for a pass over every log file, and a
        // local stat does not block; only the rare rotation itself is asynchronous.
        const { size } = statSync(file);
        if (size > this.deps.maxBytes) await rotate(file, this.deps.keep);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.deps.onError?.(file, err);
      }
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.cancel = this.deps.clock.setTimer(this.deps.intervalMs, () => {
      void this.checkNow().finally(() => this.schedule());
    });
  }
}

export async function rotate(file: string, keep: number): Promise<void> {
  if (keep > 0) {
    await unlink(`${file}.${keep}`).catch(() => undefined);
    for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(() => undefined);
    await copyFile(file, `${file}.1`);
  }
  await truncate(file, 0);
}

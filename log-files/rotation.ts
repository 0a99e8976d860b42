import { statSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { copyFile, rename, truncate, unlink } from 'node:fs/promises';
import type { Clock } from '../reconciler/clock.js';
import { GrowthMeter } from './growth.js';
import { truncateInPlace, type InPlaceRotation } from './truncate-in-place.js';

/**
 * Size-based rotation by copy and truncate: programs hold their log files open with O_APPEND,
 * so the file is copied to `.1` (older copies shift to `.2` … `.keep`) and truncated in place;
 * the program keeps writing at the new end. A few lines written during the copy may be lost,
 * the usual price of copytruncate. When the copy fails (a full disk: the copy needs the space
 * rotation is meant to free), the file is truncated in place keeping its newest bytes, and says so.
 */
/** Calls `onEvent` (with the file's name, when known) when something in `dir` is written; returns a function that stops watching. */
export type DirWatch = (dir: string, onEvent: (name?: string) => void, onError: (err: unknown) => void) => () => void;

/** inotify on the directory (fs.watch): one watch covers every log file in it. */
export const watchDir: DirWatch = (dir, onEvent, onError) => {
  const w = watch(dir, { persistent: false }, (_event, name) => onEvent(name ?? undefined));
  w.on('error', onError);
  return () => w.close();
};

/** The closest two passes come while a file grows fast (each stats every log file of the directories written). */
export const MIN_PASS_MS = 250;

/**
 * Runs the size checks when the logs are written, not on a clock: each directory holding log
 * files is watched (inotify), and the first write seen in it closes that watch and schedules
 * one pass `intervalMs` later, which re-arms the watch before it stats the files. So a busy log
 * directory costs one wake-up and one pass per interval, as the old poll did, and an idle one
 * costs nothing at all. One pass runs `intervalMs` after start (files that grew while svcd was
 * down). A directory that cannot be watched is checked every interval instead.
 *
 * A fast writer would overshoot log_max_bytes by what it writes in an interval, so each pass
 * measures how fast the files grow (from the size at the write that woke it, or at the previous
 * pass) and the next pass comes when the fastest one is due to cross the limit, if that is
 * sooner: down to MIN_PASS_MS apart, and only while a file grows that fast.
 */
export class LogRotator {
  private cancel: (() => void) | null = null;
  /** When the armed pass runs (clock ms). */
  private dueAt = 0;
  private stopped = false;
  private pass: Promise<void> = Promise.resolve();
  private readonly watching = new Map<string, () => void>();
  private readonly dirty = new Set<string>();
  /** How fast each log file grows: when the next pass is due. */
  private readonly growth: GrowthMeter;
  /** The delay of the next pass after a write: intervalMs, or less while a file grows fast. */
  private delay: number;

  constructor(
    private readonly deps: {
      clock: Clock;
      files: () => string[];
      maxBytes: number;
      keep: number;
      intervalMs: number;
      /** Every directory log files may be in (default: those of `files()`); watched for writes. */
      dirs?: () => Iterable<string>;
      /** How a directory is watched for writes (tests pass a fake). */
      watch?: DirWatch;
      onError?: (file: string, err: unknown) => void;
      /** A file that could not be copied and was shrunk in place instead. */
      onInPlace?: (file: string, info: InPlaceRotation) => void;
    },
  ) {
    this.delay = deps.intervalMs;
    this.growth = new GrowthMeter(deps.maxBytes);
  }

  start(): void {
    if (this.deps.maxBytes <= 0) return;
    for (const dir of this.dirs()) this.dirty.add(dir);
    this.sync();
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    for (const close of this.watching.values()) close();
    this.watching.clear();
  }

  /** Watches the directories of files added since (call when programs are added): `dirs`, or all of them. */
  sync(dirs: Iterable<string> = this.dirs()): void {
    if (this.stopped || this.deps.maxBytes <= 0) return;
    for (const dir of dirs) {
      if (this.watching.has(dir) || this.dirty.has(dir)) continue;
      try {
        this.watching.set(dir, (this.deps.watch ?? watchDir)(dir, (name) => this.written(dir, name), (err) => this.unwatchable(dir, err)));
      } catch (err) {
        this.unwatchable(dir, err);
      }
    }
  }

  /** Resolves when the pass in progress (if any) is done. */
  settled(): Promise<void> {
    return this.pass;
  }

  /** Checks every file now (or those in `dirs`). */
  async checkNow(dirs?: ReadonlySet<string>): Promise<void> {
    const { maxBytes, clock } = this.deps;
    const checked = new Set<string>();
    let soonest = Infinity;
    for (const file of this.deps.files()) {
      if (dirs && !dirs.has(dirname(file))) continue;
      checked.add(file);
      try {
        // statSync: ten times cheaper than the promise form for a pass over every log file, and a
        // local stat does not block; only the rare rotation itself is asynchronous.
        const { size, birthtimeMs } = statSync(file);
        const rotating = size > maxBytes;
        soonest = Math.min(soonest, this.growth.observe(file, size, birthtimeMs, clock.now(), rotating));
        if (!rotating) continue;
        const inPlace = await rotate(file, this.deps.keep, { tailBytes: tailBytesFor(maxBytes) });
        if (inPlace) this.deps.onInPlace?.(file, inPlace);
      } catch (err) {
        this.growth.forget(file);
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.deps.onError?.(file, err);
      }
    }
    // Sizes of files no pass looks at any more (a removed program, a name the watch reported) go.
    this.growth.retain((file) => checked.has(file) || (dirs !== undefined && !dirs.has(dirname(file))));
    this.delay = Math.max(MIN_PASS_MS, Math.min(this.deps.intervalMs, Math.floor(soonest)));
  }

  private dirs(): Set<string> {
    return new Set(this.deps.dirs?.() ?? this.deps.files().map((f) => dirname(f)));
  }

  private written(dir: string, name?: string): void {
    // One wake-up per interval: stop listening until the pass, which listens again first.
    this.watching.get(dir)?.();
    this.watching.delete(dir);
    this.dirty.add(dir);
    if (name) {
      const file = join(dir, name);
      this.growth.wokeUp(file, this.deps.clock.now(), this.deps.intervalMs, () => sizeOf(file));
    }
    this.arm();
  }

  private unwatchable(dir: string, err: unknown): void {
    this.watching.get(dir)?.();
    this.watching.delete(dir);
    // No such directory: no log files there yet; the next sync (a program added) tries again.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    this.deps.onError?.(dir, err);
    this.written(dir); // checked on the next pass, which tries to watch it again
  }

  private arm(): void {
    if (this.stopped || this.cancel) return;
    this.dueAt = this.deps.clock.now() + this.delay;
    this.cancel = this.deps.clock.setTimer(this.delay, () => {
      this.cancel = null;
      const dirs = new Set(this.dirty);
      this.dirty.clear();
      this.sync();
      this.pass = this.checkNow(dirs).then(() => this.hasten());
    });
  }

  /** A write during the pass armed the next one before the pass had measured the growth: bring it forward. */
  private hasten(): void {
    if (!this.cancel || this.dueAt <= this.deps.clock.now() + this.delay) return;
    this.cancel();
    this.cancel = null;
    this.arm();
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

function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

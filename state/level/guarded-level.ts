import { isStorageFailure, unwritable, type StoreWriteError } from './store-errors.js';

/** Whether a store takes writes now, and if not, why and since when. */
export interface WriteHealth {
  writable: boolean;
  /** Why writes are refused ("no space left on the data disk (...)..."); null while writable. */
  problem: string | null;
  /** Unix ms of the failed write that started the refusal; null while writable. */
  since: number | null;
}

/** The time source (the reconciler's Clock, structurally; `state/` may not import it). */
export interface GuardClock {
  now(): number;
  setTimer(ms: number, fn: () => void): () => void;
}

/** The slice of an abstract-level database the guard writes through. */
export interface BatchTarget {
  batch(ops: never[], options?: { sync?: boolean }): Promise<void>;
}

export interface GuardedLevelOptions {
  /** How messages name the store: "the state store". */
  what: string;
  /** The directory a full disk is reported for. */
  dir: string;
  clock: GuardClock;
  /** Closes and opens the database again, which starts a fresh write-ahead log. */
  reopen: () => Promise<void>;
  /** Whether the disk has room for that reopen (room.ts). */
  hasRoom: () => Promise<boolean>;
  /** How often a store that refuses writes tries to recover; default 1000 ms. */
  retryMs?: number;
  /** Every change of health, with the error that caused a refusal. */
  onChange?: (health: WriteHealth, err?: unknown) => void;
}

/**
 * Every write to one LevelDB goes through here. After a write fails (a full disk), LevelDB's
 * log writer is left behind a torn record: later writes would succeed, yet be dropped at the
 * next open (LevelDB 1.20 db/log_writer.cc advances its block offset even when the append
 * fails). So a failed write makes the guard refuse every write, with the reason, until the
 * disk has room and the database has been reopened on a fresh log. Then it is writable again.
 */
export class GuardedLevel {
  private refusal: StoreWriteError | null = null;
  private since: number | null = null;
  private recovering: Promise<void> | null = null;
  private cancelRetry: (() => void) | null = null;
  private closed = false;
  private readonly inflight = new Set<Promise<void>>();
  private waiters: ((writable: boolean) => void)[] = [];

  constructor(
    private readonly db: BatchTarget,
    private readonly opts: GuardedLevelOptions,
  ) {}

  health(): WriteHealth {
    return { writable: this.refusal === null, problem: this.refusal?.message ?? null, since: this.since };
  }

  /** The error a write gets now (a 507 or 503 SvcError), or null while writable. */
  get refusedWith(): StoreWriteError | null {
    return this.refusal;
  }

  /**
   * Writes one atomic batch. While the store refuses writes this first tries to recover, then
   * throws the refusal; a write that fails starts a refusal and throws it. Nothing is written
   * on a refusal.
   */
  async batch(ops: unknown[], options: { sync?: boolean } = {}): Promise<void> {
    if (this.refusal) await this.recover();
    if (this.refusal) throw this.refusal;
    const write = this.db.batch(ops as never[], options);
    this.inflight.add(write);
    try {
      await write;
    } catch (err) {
      if (!isStorageFailure(err)) throw err;
      this.fail(err);
      throw this.refusal ?? err;
    } finally {
      this.inflight.delete(write);
    }
  }

  /** Resolves true once the store is writable (at once if it is), false if it is closed first. */
  whenWritable(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.refusal) return Promise.resolve(true);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Waits for a reopen in progress (reads need an open database). */
  async ready(): Promise<void> {
    await this.recovering;
  }

  /** Tries once to make a refusing store writable again; concurrent calls share one attempt. */
  recover(): Promise<void> {
    this.recovering ??= this.tryRecover().finally(() => (this.recovering = null));
    return this.recovering;
  }

  /** Stops retrying; waiting writers are told the store is gone. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancelRetry?.();
    this.cancelRetry = null;
    await this.recovering;
    await Promise.allSettled([...this.inflight]);
    this.wake(false);
  }

  private fail(err: unknown): void {
    if (!this.refusal) {
      this.refusal = unwritable(err, this.opts.what, this.opts.dir);
      this.since = this.opts.clock.now();
      this.opts.onChange?.(this.health(), err);
    }
    this.scheduleRetry();
  }

  private async tryRecover(): Promise<void> {
    if (!this.refusal || this.closed) return;
    try {
      if (!(await this.opts.hasRoom())) return;
      await Promise.allSettled([...this.inflight]);
      await this.opts.reopen();
    } catch (err) {
      // Still failing (the disk filled again, or the reopen itself failed): say so, retry later.
      this.refusal = unwritable(err, this.opts.what, this.opts.dir);
      this.opts.onChange?.(this.health(), err);
      return;
    }
    this.refusal = null;
    this.since = null;
    this.cancelRetry?.();
    this.cancelRetry = null;
    this.opts.onChange?.(this.health());
    this.wake(true);
  }

  private scheduleRetry(): void {
    if (this.cancelRetry || this.closed) return;
    this.cancelRetry = this.opts.clock.setTimer(this.opts.retryMs ?? 1000, () => {
      this.cancelRetry = null;
      void this.recover().then(() => {
        if (this.refusal) this.scheduleRetry();
      });
    });
  }

  private wake(writable: boolean): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(writable);
  }
}

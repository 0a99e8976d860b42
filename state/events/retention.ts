import type { EventClock } from './clock.js';

export const DAY_MS = 86_400_000;

/**
 * Records stamped before this instant are past retention; null when everything is kept (also
 * when the cutoff falls before 1970: nothing is that old, and such an instant may not even be a
 * valid Date).
 */
export function retentionCutoffMs(nowMs: number, keepDays: number): number | null {
  const cutoff = nowMs - keepDays * DAY_MS;
  return keepDays > 0 && cutoff > 0 ? cutoff : null;
}

/** Milliseconds from `nowMs` to the next UTC midnight (a full day when exactly at midnight). */
export function msUntilNextUtcMidnight(nowMs: number): number {
  return DAY_MS - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
}

export interface RetentionOptions {
  clock: EventClock;
  /** `[storage] events_keep_days`; 0 keeps everything and schedules nothing. */
  keepDays: number;
  /** Deletes every record stamped before `cutoffMs` (with its index entries); returns how many. */
  prune: (cutoffMs: number) => Promise<number>;
  onPruned?: (deleted: number, cutoffMs: number) => void;
  onError?: (err: unknown) => void;
}

/**
 * Time-based retention, once per UTC day: a run at start, then one at every UTC midnight on
 * the clock. There is no per-program cap (spec, Storage and retention).
 */
export class Retention {
  private cancel: (() => void) | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly opts: RetentionOptions) {}

  /** Runs the first pass and schedules the next; resolves when the first pass is done. */
  async start(): Promise<void> {
    if (this.opts.keepDays <= 0) return;
    this.running = this.runOnce();
    await this.running;
    this.scheduleNext();
  }

  /** Resolves when no pass is in progress (tests await this after moving a fake clock). */
  whenIdle(): Promise<void> {
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    const { clock } = this.opts;
    this.cancel = clock.setTimer(msUntilNextUtcMidnight(clock.now()), () => {
      this.cancel = null;
      this.running = this.runOnce().then(() => this.scheduleNext());
    });
  }

  /** One pass; a failure is reported and retried at the next midnight, never thrown. */
  private async runOnce(): Promise<void> {
    const cutoff = retentionCutoffMs(this.opts.clock.now(), this.opts.keepDays);
    if (cutoff === null || this.stopped) return;
    try {
      const deleted = await this.opts.prune(cutoff);
      this.opts.onPruned?.(deleted, cutoff);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }
}

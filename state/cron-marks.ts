/** The durable fact behind cron catch-up: the newest slot handled, and whether the user paused it. */
export interface CronMarkRecord {
  /** Unix ms. */
  last_fire_at: number;
  paused: boolean;
}

/** The slice of an abstract-level (sub)level this store uses (store.meta). */
interface Meta {
  batch(ops: ({ type: 'put'; key: string; value: string } | { type: 'del'; key: string })[]): Promise<void>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, string]>;
}

/**
 * Cron marks under `cron:<id>` in store.meta, written behind the cron controller without making
 * it wait: changes are coalesced per program and written one batch at a time, in order.
 */
export class CronMarks {
  private readonly loaded = new Map<string, CronMarkRecord>();
  private pending = new Map<string, CronMarkRecord | null>();
  private flushing: Promise<void> | null = null;
  /** Write failures (the next write of the same key retries); exposed for logs and metrics. */
  failures = 0;

  constructor(
    private readonly meta: Meta,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Reads every mark once at start-up. */
  async load(): Promise<void> {
    for await (const [key, value] of this.meta.iterator({ gte: 'cron:', lt: 'cron;' })) {
      try {
        const mark = JSON.parse(value) as CronMarkRecord;
        if (typeof mark.last_fire_at === 'number') this.loaded.set(key.slice(5), { last_fire_at: mark.last_fire_at, paused: mark.paused === true });
      } catch {
        // A torn mark only costs its catch-up: the schedule starts from now.
      }
    }
  }

  /** The mark as loaded at start-up (later writes are the controller's own memory). */
  get(id: string): CronMarkRecord | undefined {
    return this.loaded.get(id);
  }

  set(id: string, mark: CronMarkRecord | null): void {
    this.loaded.delete(id);
    this.pending.set(id, mark);
    this.flushing ??= this.flushLoop();
  }

  /** Resolves when everything set so far is on disk (or failed). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch = this.pending;
        this.pending = new Map();
        try {
          await this.meta.batch(
            [...batch].map(([id, mark]) => (mark ? { type: 'put' as const, key: `cron:${id}`, value: JSON.stringify(mark) } : { type: 'del' as const, key: `cron:${id}` })),
          );
        } catch (err) {
          this.failures++;
          this.onError(err);
        }
      }
    } finally {
      this.flushing = null;
    }
  }
}

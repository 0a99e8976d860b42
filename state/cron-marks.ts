import { KeyedWriter, type MetaLevel } from './keyed-writer.js';

/** The durable fact behind cron catch-up: the newest slot handled, and whether the user paused it. */
export interface CronMarkRecord {
  /** Unix ms. */
  last_fire_at: number;
  paused: boolean;
}

/** Cron marks under `cron:<id>` in store.meta, written behind the cron controller. */
export class CronMarks {
  private loaded = new Map<string, CronMarkRecord>();
  private readonly writer: KeyedWriter<CronMarkRecord>;

  constructor(meta: MetaLevel, onError: (err: unknown) => void = () => undefined) {
    this.writer = new KeyedWriter(meta, 'cron', onError);
  }

  /** Write failures (the next write of the same key retries); exposed for logs and metrics. */
  get failures(): number {
    return this.writer.failures;
  }

  /** Reads every mark once at start-up. A torn mark only costs its catch-up. */
  async load(): Promise<void> {
    this.loaded = await this.writer.loadAll((v) => {
      const mark = v as Partial<CronMarkRecord>;
      return typeof mark.last_fire_at === 'number' ? { last_fire_at: mark.last_fire_at, paused: mark.paused === true } : null;
    });
  }

  /** The mark as loaded at start-up (later writes are the controller's own memory). */
  get(id: string): CronMarkRecord | undefined {
    return this.loaded.get(id);
  }

  set(id: string, mark: CronMarkRecord | null): void {
    this.loaded.delete(id);
    this.writer.set(id, mark);
  }

  /** Resolves when everything set so far is on disk (or failed). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}

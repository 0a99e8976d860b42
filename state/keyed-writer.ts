import { StoreWriteError } from './level/store-errors.js';

/** The slice of an abstract-level (sub)level the writer uses (store.meta). */
export interface MetaLevel {
  batch(ops: ({ type: 'put'; key: string; value: string } | { type: 'del'; key: string })[]): Promise<void>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, string]>;
  /** Resolves true once a store that refused a write takes writes again, false if it closed. */
  whenWritable?(): Promise<boolean>;
}

/**
 * Small durable facts keyed `<prefix>:<id>` in store.meta, written behind a controller without
 * making it wait: changes are coalesced per id and written one batch at a time, in order. A
 * failed batch is reported and counted, and kept (unless a newer value replaced it) for a retry
 * once the store takes writes again (a full disk); without `whenWritable` the next write of the
 * same id retries.
 */
export class KeyedWriter<T> {
  private pending = new Map<string, T | null>();
  private flushing: Promise<void> | null = null;
  /** The loop waits for the store to take writes again; flush() does not wait for that. */
  private parked = false;
  private flushWaiters: (() => void)[] = [];
  /** Failed batches since start. */
  failures = 0;

  constructor(
    private readonly meta: MetaLevel,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Queues a write (null deletes). */
  set(id: string, value: T | null): void {
    this.pending.set(id, value);
    this.flushing ??= this.flushLoop();
  }

  /** Every stored value, parsed by `parse` (a value it rejects with null is skipped). */
  async loadAll(parse: (value: unknown) => T | null): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    for await (const [key, text] of this.meta.iterator({ gte: `${this.prefix}:`, lt: `${this.prefix};` })) {
      try {
        const value = parse(JSON.parse(text));
        if (value !== null) out.set(key.slice(this.prefix.length + 1), value);
      } catch {
        // a torn record is skipped: it only costs what it would have restored
      }
    }
    return out;
  }

  /** Resolves when everything set so far is on disk, has failed, or waits for the store to take writes. */
  async flush(): Promise<void> {
    if (!this.flushing || this.parked) return;
    await new Promise<void>((resolve) => this.flushWaiters.push(resolve));
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch = this.pending;
        this.pending = new Map();
        try {
          await this.meta.batch(
            [...batch].map(([id, value]) =>
              value === null ? { type: 'del' as const, key: `${this.prefix}:${id}` } : { type: 'put' as const, key: `${this.prefix}:${id}`, value: JSON.stringify(value) },
            ),
          );
        } catch (err) {
          this.failures++;
          this.onError(err);
          // Only a refusal of the store (a full disk) is worth waiting out; anything else is reported.
          if (!this.meta.whenWritable || !(err instanceof StoreWriteError)) continue;
          for (const [id, value] of batch) if (!this.pending.has(id)) this.pending.set(id, value);
          this.parked = true;
          this.wakeFlushers();
          const writable = await this.meta.whenWritable();
          this.parked = false;
          if (!writable) return; // the store closed: nothing more can be written
        }
      }
    } finally {
      this.flushing = null;
      this.wakeFlushers();
    }
  }

  private wakeFlushers(): void {
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    for (const w of waiters) w();
  }
}

/**
 * One kind of record under `<prefix>:<id>` (runtime records, health verdicts): written behind as
 * KeyedWriter writes, read back through the kind's own parser.
 */
export class KeyedRecords<T> extends KeyedWriter<T> {
  constructor(
    meta: MetaLevel,
    prefix: string,
    private readonly parse: (value: unknown) => T | null,
    onError?: (err: unknown) => void,
  ) {
    super(meta, prefix, onError);
  }

  /** Every stored record its parser accepts. */
  override loadAll(): Promise<Map<string, T>> {
    return super.loadAll(this.parse);
  }
}

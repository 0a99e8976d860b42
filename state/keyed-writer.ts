/** The slice of an abstract-level (sub)level the writer uses (store.meta). */
export interface MetaLevel {
  batch(ops: ({ type: 'put'; key: string; value: string } | { type: 'del'; key: string })[]): Promise<void>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, string]>;
}

/**
 * Small durable facts keyed `<prefix>:<id>` in store.meta, written behind a controller without
 * making it wait: changes are coalesced per id and written one batch at a time, in order. A
 * failed batch is reported and counted; the next write of the same id retries.
 */
export class KeyedWriter<T> {
  private pending = new Map<string, T | null>();
  private flushing: Promise<void> | null = null;
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

  /** Resolves when everything set so far is on disk (or has failed). */
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
            [...batch].map(([id, value]) =>
              value === null ? { type: 'del' as const, key: `${this.prefix}:${id}` } : { type: 'put' as const, key: `${this.prefix}:${id}`, value: JSON.stringify(value) },
            ),
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

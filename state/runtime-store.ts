
/** The persisted facts about a live process that let a restarted daemon re-adopt it. */
export interface RuntimeRecord {
  pid: number;
  startTime: number;
  startedAt: number;
  stopsecs: number;
}

/** The slice of an abstract-level (sub)level this store uses. */
interface Meta {
  batch(ops: ({ type: 'put'; key: string; value: string } | { type: 'del'; key: string })[]): Promise<void>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, string]>;
}

/**
 * Writes runtime records behind the process controller without making it wait: changes are
 * coalesced per program and written in one batch at a time, in order.
 */
export class RuntimeStore {
  private pending = new Map<string, RuntimeRecord | null>();
  private flushing: Promise<void> | null = null;

  constructor(private readonly meta: Meta) {}

  set(id: string, record: RuntimeRecord | null): void {
    this.pending.set(id, record);
    this.flushing ??= this.flushLoop();
  }

  async loadAll(): Promise<Map<string, RuntimeRecord>> {
    const out = new Map<string, RuntimeRecord>();
    for await (const [key, value] of this.meta.iterator({ gte: 'run:', lt: 'run;' })) {
      out.set(key.slice(4), JSON.parse(value) as RuntimeRecord);
    }
    return out;
  }

  /** Resolves when everything set so far is on disk. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch = this.pending;
        this.pending = new Map();
        await this.meta.batch(
          [...batch].map(([id, record]) =>
            record ? { type: 'put' as const, key: `run:${id}`, value: JSON.stringify(record) } : { type: 'del' as const, key: `run:${id}` },
          ),
        );
      }
    } finally {
      this.flushing = null;
    }
  }
}

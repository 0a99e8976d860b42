import type { MetaLevel } from './keyed-writer.js';

/**
 * A controller's durable per-program status record (`status:<controller>:<id>` in store.meta),
 * for controllers whose progress must survive a daemon crash (OTA: the step about to be taken).
 * Unlike the behind-writers (runtime records, cron marks), `put` resolves only once the record
 * is on disk: a controller persists a step *before* it takes it.
 */
export class ControllerStatusStore<T> {
  private readonly records = new Map<string, T>();

  constructor(
    private readonly meta: MetaLevel,
    private readonly controller: string,
  ) {}

  private key(id: string): string {
    return `status:${this.controller}:${id}`;
  }

  /** Reads every record once at start-up; `parse` returns null for a record it rejects. */
  async load(parse: (value: unknown) => T | null): Promise<{ loaded: number; rejected: string[] }> {
    const prefix = `status:${this.controller}:`;
    const rejected: string[] = [];
    for await (const [key, text] of this.meta.iterator({ gte: prefix, lt: `status:${this.controller};` })) {
      const id = key.slice(prefix.length);
      let value: T | null = null;
      try {
        value = parse(JSON.parse(text));
      } catch {
        value = null;
      }
      if (value === null) rejected.push(id);
      else this.records.set(id, value);
    }
    return { loaded: this.records.size, rejected };
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  ids(): string[] {
    return [...this.records.keys()];
  }

  /** Durable before it resolves; memory changes only after the write succeeded. */
  async put(id: string, value: T): Promise<void> {
    await this.meta.batch([{ type: 'put', key: this.key(id), value: JSON.stringify(value) }]);
    this.records.set(id, value);
  }

  async delete(id: string): Promise<void> {
    if (!this.records.has(id)) return;
    await this.meta.batch([{ type: 'del', key: this.key(id) }]);
    this.records.delete(id);
  }
}

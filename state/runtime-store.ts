import { KeyedWriter, type MetaLevel } from './keyed-writer.js';

/** The persisted facts about a live process that let a restarted daemon re-adopt it. */
export interface RuntimeRecord {
  pid: number;
  startTime: number;
  startedAt: number;
  stopsecs: number;
}

/** Runtime records under `run:<id>` in store.meta, written behind the process controller. */
export class RuntimeStore {
  private readonly writer: KeyedWriter<RuntimeRecord>;

  constructor(meta: MetaLevel, onError?: (err: unknown) => void) {
    this.writer = new KeyedWriter(meta, 'run', onError);
  }

  set(id: string, record: RuntimeRecord | null): void {
    this.writer.set(id, record);
  }

  loadAll(): Promise<Map<string, RuntimeRecord>> {
    return this.writer.loadAll((v) => {
      const r = v as Partial<RuntimeRecord>;
      return typeof r.pid === 'number' && typeof r.startTime === 'number' ? (r as RuntimeRecord) : null;
    });
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}

import { KeyedWriter, type MetaLevel } from './keyed-writer.js';

/** The durable fact behind cron catch-up: the newest slot handled, and whether the user paused it. */
export interface CronMarkRecord {
  /** Unix ms. */
  last_fire_at: number;
  paused: boolean;
  /** Firings waiting for a free run slot (on_overlap = queue, or depends_on not up), oldest first: they survive a restart of svcd. */
  queued?: QueuedFiring[];
  /** A slot waiting for its jitter (jitter_sec): the time drawn for it, kept so that a restart neither draws again nor finds the slot late. */
  jitter?: { slot: number; at: number };
}

export interface QueuedFiring {
  /** Unix ms. */
  slot: number;
  trigger: 'schedule' | 'catchup' | 'queue' | 'manual';
}

const TRIGGERS = new Set<string>(['schedule', 'catchup', 'queue', 'manual']);
/** max_queued's own bound: a longer list was not written by svcd. */
const MAX_KEPT = 100_000;

function jitterOf(value: unknown): CronMarkRecord['jitter'] | null {
  const j = value as Partial<NonNullable<CronMarkRecord['jitter']>> | null | undefined;
  return typeof j?.slot === 'number' && typeof j.at === 'number' && Number.isFinite(j.slot) && j.at >= j.slot ? { slot: j.slot, at: j.at } : null;
}

/** The queued firings of a stored mark; what does not read as one is left out (a torn mark costs only those). */
function queuedOf(value: unknown): QueuedFiring[] {
  if (!Array.isArray(value)) return [];
  const out: QueuedFiring[] = [];
  for (const f of value.slice(0, MAX_KEPT) as Partial<QueuedFiring>[]) {
    if (typeof f?.slot === 'number' && Number.isFinite(f.slot) && typeof f.trigger === 'string' && TRIGGERS.has(f.trigger)) out.push({ slot: f.slot, trigger: f.trigger });
  }
  return out;
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
      if (typeof mark.last_fire_at !== 'number') return null;
      const queued = queuedOf(mark.queued);
      const jitter = jitterOf(mark.jitter);
      return { last_fire_at: mark.last_fire_at, paused: mark.paused === true, ...(queued.length > 0 ? { queued } : {}), ...(jitter ? { jitter } : {}) };
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

import { readFileSync } from 'node:fs';
import { KeyedWriter, type MetaLevel } from './keyed-writer.js';
import type { LastExit } from './observed.js';

/** What a program's supervision was when it had no process: waiting to retry, given up, or ended by policy. */
export interface SupervisionRecord {
  status: 'Backoff' | 'Fatal' | 'Exited';
  retries: number;
  restarts: number;
  /** Unix ms; Backoff only. */
  next_retry_at: number | null;
  last_exit: LastExit | null;
  /** The machine boot it was written in: a reboot starts programs afresh (docs/states.md). */
  boot_id: string;
}

/**
 * Supervision records under `sup:<id>` in store.meta, written behind the process controller, so
 * that a crash of svcd does not turn a Fatal program back into a running one, run a program that
 * Exited (a one-shot job done) a second time, nor forget a pending retry. A graceful shutdown
 * clears them (a restart of svcd is then a boot).
 */
export class SupervisionStore {
  private readonly writer: KeyedWriter<SupervisionRecord>;

  constructor(
    meta: MetaLevel,
    /** This machine boot's id; records of another boot are not restored. */
    readonly bootId: string,
    onError?: (err: unknown) => void,
  ) {
    this.writer = new KeyedWriter(meta, 'sup', onError);
  }

  set(id: string, record: Omit<SupervisionRecord, 'boot_id'> | null): void {
    this.writer.set(id, record && { ...record, boot_id: this.bootId });
  }

  /** The records of this machine boot (others are deleted: they would only mislead). */
  async loadCurrent(): Promise<Map<string, SupervisionRecord>> {
    const all = await this.writer.loadAll(parseRecord);
    for (const [id, r] of all) {
      if (r.boot_id === this.bootId && this.bootId !== '') continue;
      all.delete(id);
      this.writer.set(id, null);
    }
    return all;
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}

function parseRecord(value: unknown): SupervisionRecord | null {
  const r = value as Partial<SupervisionRecord> | null;
  if (r?.status !== 'Backoff' && r?.status !== 'Fatal' && r?.status !== 'Exited') return null;
  if (typeof r.retries !== 'number' || typeof r.restarts !== 'number' || typeof r.boot_id !== 'string') return null;
  if (r.next_retry_at !== null && typeof r.next_retry_at !== 'number') return null;
  return { status: r.status, retries: r.retries, restarts: r.restarts, next_retry_at: r.next_retry_at ?? null, last_exit: r.last_exit ?? null, boot_id: r.boot_id };
}

/** The kernel's id of this boot ('' where it cannot be read: then nothing is restored). */
export function machineBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim();
  } catch {
    return '';
  }
}

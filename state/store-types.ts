import type { GuardClock, WriteHealth } from './level/guarded-level.js';
import type { DamagePolicy } from './level/open-level.js';
import type { MetaLevel } from './keyed-writer.js';
import type { ProgramConfig, ProgramRecord } from './program.js';
import type { QuarantinedRecord } from './quarantine.js';

/** A write the store performs atomically: records to put and ids to delete. */
export interface Change {
  put: ProgramRecord[];
  del: string[];
}

/**
 * Emitted after every committed write with the ids it touched and, for those whose config changed
 * (created, edited or removed), the config before the write (null: created). The other ids
 * changed only their intent (start, stop).
 */
export type ChangeListener = (ids: string[], configs: ReadonlyMap<string, ProgramConfig | null>) => void;

/** Where the store reports what deserves a line in the daemon log (conf/logger.ts fits). */
export interface StoreLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface StoreOptions {
  /** `[storage] log_dir`: stored log paths are validated against it at load (absent: not checked). */
  logDir?: string;
  /** Times of quarantine entries and refusals, and the store's retry timer; default the system clock. */
  clock?: GuardClock;
  /** What a damaged write-ahead log does at open (level/open-level.ts); default `refuse`. */
  damage?: DamagePolicy;
  log?: StoreLog;
}

/** The state store's health for `GET /api/v1/system/storage` and `svc storage`. */
export interface StateStoreReport extends WriteHealth {
  /** Stop requests applied in memory while the store could not write, written when it can. */
  pending_intents: number;
  /** Records refused at load and kept aside (stored-records.ts). */
  quarantined: QuarantinedRecord[];
  /** What the last open found damaged and dropped, or null for a clean open. */
  recovered_at_open: string | null;
}

/** store.meta: a small key/value area for other durable facts, written through the store's guard. */
export interface MetaArea extends MetaLevel {
  get(key: string): Promise<string | undefined>;
  /** One synced put (a write like any other: refused while the store cannot write). */
  put(key: string, value: string): Promise<void>;
}

export const systemClock: GuardClock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

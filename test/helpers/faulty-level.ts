import { MemoryLevel } from 'memory-level';

/** The error classic-level gives when LevelDB's log write hits a full disk. */
export function enospc(): Error {
  return Object.assign(new Error('IO error: /srv/svc/data/state.db/000003.log: No space left on device'), { code: 'LEVEL_IO_ERROR' });
}

/**
 * A memory-level database whose writes can be made to fail like a full disk, or to wait like a
 * slow one, and which counts its reopens (what the store must do after a failed write before it
 * writes again).
 */
export function faultyLevel() {
  const db = new MemoryLevel<string, string>();
  let failing = false;
  /** Writes held back while the disk is slow; each runs when it is released. */
  let slow: (() => void)[] | null = null;
  /** The next write fails with this error (once). */
  let nextError: Error | null = null;
  let opens = 0;
  // Loosely typed on purpose: the wrappers forward whatever the store passes.
  const batch = db.batch.bind(db) as unknown as (...args: unknown[]) => Promise<void>;
  const open = db.open.bind(db);
  /** Writes that reached the database after a failure without a reopen in between. */
  let unsafeWrites = 0;
  let failedSinceOpen = false;
  /** The `sync` option of every write that reached the database. */
  const syncs: boolean[] = [];
  Object.assign(db, {
    batch: (...args: unknown[]) => {
      syncs.push((args[1] as { sync?: boolean } | undefined)?.sync === true);
      if (failing) {
        failedSinceOpen = true;
        return Promise.reject(enospc());
      }
      if (nextError) {
        const err = nextError;
        nextError = null;
        return Promise.reject(err);
      }
      if (failedSinceOpen) unsafeWrites++;
      if (slow) {
        const queue = slow;
        return new Promise<void>((resolve) => queue.push(resolve)).then(() => batch(...args));
      }
      return batch(...args);
    },
    open: (options?: Parameters<typeof open>[0]) => {
      opens++;
      failedSinceOpen = false;
      return options === undefined ? open() : open(options);
    },
  });
  return {
    db,
    /** Makes every write fail (true) or succeed again (false). */
    fill: (full: boolean) => (failing = full),
    /** Holds every write back until `release` (a slow disk). */
    slow: () => (slow ??= []),
    /** Lets the held writes through and makes the disk fast again. */
    release: () => {
      const queue = slow ?? [];
      slow = null;
      for (const go of queue) go();
    },
    /** Writes held back now. */
    get held() {
      return slow?.length ?? 0;
    },
    /** Makes the next write fail with `err`. */
    failNext: (err: Error) => (nextError = err),
    get opens() {
      return opens;
    },
    get unsafeWrites() {
      return unsafeWrites;
    },
    syncs,
  };
}

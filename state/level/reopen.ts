import { droppedAtOpen, type DroppedBytes } from './info-log.js';

/** The parts of an abstract-level database (and its sublevels) a reopen touches. */
export interface Reopenable {
  readonly status: string;
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Closes and opens a LevelDB again, and its sublevels with it (a sublevel stays closed after
 * its parent is reopened). LevelDB's recovery replays the log, whose torn last record it drops
 * without loss, and starts a fresh one. Resolves with anything LevelDB says it dropped.
 */
export async function reopenLevel(db: Reopenable, sublevels: Reopenable[], location: string | null): Promise<DroppedBytes[]> {
  if (db.status === 'open') await db.close();
  await db.open();
  for (const sub of sublevels) if (sub.status !== 'open') await sub.open();
  return location === null ? [] : droppedAtOpen(location);
}

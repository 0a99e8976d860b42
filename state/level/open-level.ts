import { mkdirSync } from 'node:fs';
import { ClassicLevel } from 'classic-level';
import { droppedAtOpen, type DroppedBytes } from './info-log.js';
import { lockHolder } from './lock-holder.js';
import { describeLockHolder, describeOpenError, StoreOpenError } from './store-errors.js';
import { checkManifest, checkWalFiles, describeDamage, keepDamagedCopies, missingCurrent, type WalReport } from './wal-files.js';

/**
 * What to do when a write-ahead log is damaged:
 * - `refuse`: damage with intact records after it (records acknowledged later would be lost)
 *   refuses to open and changes nothing; a damaged last record (a cut-off write) is dropped.
 * - `accept`: open anyway; LevelDB drops the damaged bytes.
 * Either way the damaged logs are copied aside before LevelDB drops anything, and the loss is
 * reported (`OpenReport`), never silent.
 */
export type DamagePolicy = 'refuse' | 'accept';

/** What opening found and did; every field empty for a clean open. */
export interface OpenReport {
  /** Damage found in the write-ahead logs before opening: what LevelDB's recovery dropped. */
  wal: WalReport[];
  /** Where copies of the damaged logs were kept, or null. */
  keptAt: string | null;
  /** What LevelDB itself reported as dropped while opening. */
  dropped: DroppedBytes[];
}

export interface OpenLevelOptions {
  location: string;
  /** LevelDB sizes (level-options.ts). */
  options: { cacheSize: number; writeBufferSize: number };
  /** How messages name the store: "the state store", "the event history". */
  what: string;
  policy: DamagePolicy;
  /** Suffix of the directory that keeps damaged copies (an ISO time, from the caller's clock). */
  stamp: string;
  /** The advice appended to a refusal: how to proceed. */
  remedy: string;
}

export type Db = ClassicLevel<string, string>;

/** Opens a LevelDB after checking its write-ahead logs; refusals are `StoreOpenError`s that say why. */
export async function openLevel(o: OpenLevelOptions): Promise<{ db: Db; report: OpenReport }> {
  const holder = lockHolder(o.location);
  if (holder !== null) throw new StoreOpenError(describeLockHolder(o.what, o.location, holder));
  const noCurrent = await missingCurrent(o.location);
  if (noCurrent !== null) throw new StoreOpenError(`${o.what} at ${o.location} ${noCurrent}. svcd refuses to start and has changed nothing.`);
  mkdirSync(o.location, { recursive: true });
  const wal = await checkWalFiles(o.location);
  const loss = wal.filter((r) => r.damage.some((d) => d.followed));
  if (loss.length > 0 && o.policy === 'refuse') {
    throw new StoreOpenError(
      `${o.what} at ${o.location} has a damaged write-ahead log (${describeDamage(loss)}); opening it would drop records written after the damage. ` +
        `svcd refuses to start and has changed nothing. ${o.remedy}`,
    );
  }
  const keptAt = wal.length > 0 ? await keepDamagedCopies(o.location, wal, o.stamp) : null;
  const db = new ClassicLevel<string, string>(o.location, o.options);
  try {
    await db.open();
  } catch (err) {
    const manifest = await checkManifest(o.location);
    throw new StoreOpenError(describeOpenError(o.what, o.location, err, manifest ? `damaged: ${describeDamage([manifest])}` : undefined));
  }
  return { db, report: { wal, keptAt, dropped: await droppedAtOpen(o.location) } };
}

/** True when opening lost something: damaged logs, or bytes LevelDB says it dropped. */
export function lostAtOpen(report: OpenReport): boolean {
  return report.wal.length > 0 || report.dropped.length > 0;
}

/** One sentence for the daemon log and the storage report. */
export function describeOpenReport(report: OpenReport): string {
  const parts: string[] = [];
  if (report.wal.length > 0) parts.push(`damaged write-ahead log: ${describeDamage(report.wal)}`);
  for (const d of report.dropped) parts.push(`LevelDB dropped ${d.bytes} bytes of ${d.file} (${d.reason})`);
  if (report.keptAt) parts.push(`copies of the damaged logs are in ${report.keptAt}`);
  return parts.join('; ');
}

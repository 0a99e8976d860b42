import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkWal, type WalDamage } from './wal-check.js';

/** The damage found in one write-ahead log file of a LevelDB directory. */
export interface WalReport {
  file: string;
  damage: WalDamage[];
}

const WAL_NAME = /^\d+\.log$/;

/** Checks every write-ahead log (`NNNNNN.log`) of the LevelDB at `location`; a missing directory has none. */
export async function checkWalFiles(location: string): Promise<WalReport[]> {
  let names: string[];
  try {
    names = await readdir(location);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const reports: WalReport[] = [];
  for (const file of names.filter((n) => WAL_NAME.test(n)).sort()) {
    const damage = checkWal(await readFile(join(location, file)));
    if (damage.length > 0) reports.push({ file, damage });
  }
  return reports;
}

/** LevelDB's own data files: once one is there, a missing CURRENT is damage, not a new store. */
const DATA_FILE = /^(MANIFEST-\d+|\d+\.(log|ldb|sst))$/;

/**
 * Why a LevelDB directory that holds data but has no CURRENT file must not be opened, or null.
 * LevelDB would take it for a new store: it writes a fresh CURRENT and MANIFEST and deletes the
 * table files the old MANIFEST listed (the programs in them are gone for good).
 */
export async function missingCurrent(location: string): Promise<string | null> {
  let names: string[];
  try {
    names = await readdir(location);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (names.includes('CURRENT')) return null;
  const data = names.filter((n) => DATA_FILE.test(n)).sort();
  if (data.length === 0) return null;
  const manifests = data.filter((n) => n.startsWith('MANIFEST-'));
  const newest = manifests.sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)))[0];
  const fix = newest ? `, or, if ${newest} is intact, write its name into CURRENT (printf '${newest}\\n' > ${join(location, 'CURRENT')})` : '';
  return `has no CURRENT file but holds data (${data.join(', ')}); opening it would start an empty store and delete that data. Restore it from a backup${fix}`;
}

/** The MANIFEST that CURRENT points to, checked like a log (it has the same format). */
export async function checkManifest(location: string): Promise<WalReport | null> {
  try {
    const file = (await readFile(join(location, 'CURRENT'), 'utf8')).trim();
    if (!/^MANIFEST-\d+$/.test(file)) return { file: 'CURRENT', damage: [{ offset: 0, bytes: 0, reason: `names '${file.slice(0, 40)}', not a MANIFEST file`, followed: false }] };
    const damage = checkWal(await readFile(join(location, file)));
    return damage.length > 0 ? { file, damage } : null;
  } catch {
    return null; // unreadable: LevelDB's own message says more
  }
}

/**
 * Copies the damaged logs to `<location>.damaged-<stamp>/` before LevelDB's recovery drops their
 * bad bytes, so that an expert (or a later svc) can still read what followed the damage.
 */
export async function keepDamagedCopies(location: string, reports: WalReport[], stamp: string): Promise<string> {
  const aside = `${location}.damaged-${stamp}`;
  await mkdir(aside, { recursive: true });
  for (const r of reports) await copyFile(join(location, r.file), join(aside, r.file));
  return aside;
}

/** One line per damaged spot: `000005.log at byte 4096: checksum mismatch (1234 bytes)`. */
export function describeDamage(reports: WalReport[]): string {
  return reports.flatMap((r) => r.damage.map((d) => `${r.file} at byte ${d.offset}: ${d.reason} (${d.bytes} bytes)`)).join('; ');
}

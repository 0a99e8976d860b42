import { crc32c, unmask } from './crc32c.js';

/** LevelDB log format (doc/log_format.md): 32 KiB blocks of records `crc32c(4) length(2) type(1) payload`. */
const BLOCK = 32 * 1024;
const HEADER = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/** One damaged spot in a write-ahead log: LevelDB's recovery drops `bytes` bytes from `offset`. */
export interface WalDamage {
  offset: number;
  bytes: number;
  reason: string;
  /** Intact records follow the damage: writes that were acknowledged after it are affected. */
  followed: boolean;
}

/**
 * Reads a LevelDB write-ahead log the way LevelDB's recovery does (db/log_reader.cc) and lists
 * what it would drop. Beyond LevelDB, which only reports some of it, this also flags the spots
 * it skips without a word: a zeroed header, and a bad length in the last block.
 * A damaged spot with no intact record after it is a write cut off by a crash (a torn tail).
 */
export function checkWal(log: Uint8Array): WalDamage[] {
  const damage: WalDamage[] = [];
  let inFragment = false;
  for (let block = 0; block < log.length; block += BLOCK) {
    const end = Math.min(block + BLOCK, log.length);
    const lastBlock = end - block < BLOCK || end === log.length;
    let pos = block;
    while (end - pos >= HEADER) {
      const length = log[pos + 4] | (log[pos + 5] << 8);
      const type = log[pos + 6];
      const problem =
        HEADER + length > end - pos
          ? 'bad record length'
          : type === 0 && length === 0
            ? 'zeroed bytes'
            : unmask(readU32(log, pos)) !== crc32c(log, pos + 6, pos + HEADER + length)
              ? 'checksum mismatch'
              : type < FULL || type > LAST
                ? `unknown record type ${type}`
                : null;
      if (problem) {
        const followed = intactRecordIn(log, pos + 1, end) || intactBlockAfter(log, end);
        // A cut-off last write is what a crash leaves; LevelDB drops it silently, and so do we.
        const torn = !followed && lastBlock && (problem === 'bad record length' || problem === 'zeroed bytes');
        if (!torn) damage.push({ offset: pos, bytes: end - pos, reason: problem, followed });
        inFragment = false;
        break;
      }
      if ((type === MIDDLE || type === LAST) && !inFragment) {
        damage.push({ offset: pos, bytes: HEADER + length, reason: 'missing start of fragmented record', followed: true });
      } else if ((type === FULL || type === FIRST) && inFragment) {
        damage.push({ offset: pos, bytes: HEADER + length, reason: 'partial record without end', followed: true });
      }
      inFragment = type === FIRST || type === MIDDLE;
      pos += HEADER + length;
    }
  }
  return damage;
}

function readU32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/** A record with a valid checksum at `at` that fits before `end`. */
function validRecordAt(log: Uint8Array, at: number, end: number): boolean {
  if (end - at < HEADER) return false;
  const length = log[at + 4] | (log[at + 5] << 8);
  const type = log[at + 6];
  if (type < FULL || type > LAST || length === 0 || HEADER + length > end - at) return false;
  return unmask(readU32(log, at)) === crc32c(log, at + 6, at + HEADER + length);
}

/** Any intact record starting in `[from, end)` (a byte-by-byte search of at most one block). */
function intactRecordIn(log: Uint8Array, from: number, end: number): boolean {
  for (let at = from; at + HEADER <= end; at++) if (validRecordAt(log, at, end)) return true;
  return false;
}

/** Any later block that starts with an intact record (LevelDB resumes reading at block starts). */
function intactBlockAfter(log: Uint8Array, from: number): boolean {
  for (let block = from; block < log.length; block += BLOCK) {
    if (validRecordAt(log, block, Math.min(block + BLOCK, log.length))) return true;
  }
  return false;
}

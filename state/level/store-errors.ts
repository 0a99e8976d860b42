import type { LockHolder } from './lock-holder.js';
import { SvcError } from '../errors.js';

/** A store refused to open; the message says which file, why, and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/**
 * A write the store could not make durable (a full disk, an I/O error). Nothing was changed,
 * in memory or on disk; the store refuses writes until it is writable again.
 */
export class StoreWriteError extends SvcError {
  override name = 'StoreWriteError';
}

/** The OS error behind a LevelDB failure, as far as its message tells. */
function detailOf(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string } };
  return e.cause?.message ?? e.message ?? String(err);
}

/** A full disk or an exhausted quota (LevelDB reports errno text inside an `IO error:` message). */
export function isNoSpace(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === 'ENOSPC' || e.code === 'EDQUOT' || e.cause?.code === 'ENOSPC' || /No space left on device|Disk quota exceeded/i.test(detailOf(err));
}

/** A failure of the storage itself (not a programming error such as a closed database). */
export function isStorageFailure(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return isNoSpace(err) || code === 'LEVEL_IO_ERROR' || code === 'LEVEL_CORRUPTION' || /^(IO error|Corruption):/.test(detailOf(err));
}

/**
 * The refusal a caller sees while a store cannot write. A full disk is a 507 whose message
 * starts with "no space left on the data disk"; any other storage failure is a 503.
 */
export function unwritable(err: unknown, what: string, dir: string): StoreWriteError {
  return isNoSpace(err)
    ? new StoreWriteError('SVC_NO_SPACE', `no space left on the data disk (${dir}): ${what} cannot record this change; free some space and retry`, { cause: err })
    : new StoreWriteError('SVC_UNAVAILABLE', `${what} cannot write (${detailOf(err)}); svcd retries in the background, try again shortly`, { cause: err });
}

/** Why LevelDB refused to open, in words that say which file and what to do. */
export function describeOpenError(what: string, location: string, err: unknown, damaged?: string): string {
  const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  const detail = detailOf(err);
  if (code === 'LEVEL_LOCKED' || /lock/i.test(detail)) {
    return `${what} at ${location} is locked by another process (is another svcd running with this SVC_ROOT?)`;
  }
  if (isNoSpace(err)) {
    return `no space left on the data disk: ${what} at ${location} cannot be opened (LevelDB writes its recovered log on open: ${detail}); free some space and start again`;
  }
  if (code === 'LEVEL_CORRUPTION' || /corrupt/i.test(detail)) {
    return `${what} at ${location} is corrupt (${detail}; ${damaged ?? namedFiles(detail, location)}); refusing to start. Restore it from a backup, or move it aside to start empty.`;
  }
  return `cannot open ${what} at ${location}: ${detail}`;
}

/** The refusal when another process holds the store (found before LevelDB opens): who, and that nothing was touched. */
export function describeLockHolder(what: string, location: string, holder: LockHolder): string {
  const who = holder.pid > 0 ? `pid ${holder.pid}${holder.command ? `: ${holder.command}` : ''}` : 'a process in another pid namespace';
  return `${what} at ${location} is in use by another process (${who}); is another svcd running with this SVC_ROOT? svcd refuses to start and has changed nothing.`;
}

/** LevelDB's corruption messages name a file only sometimes; say which ones are read at open. */
function namedFiles(detail: string, location: string): string {
  if (/CURRENT/.test(detail)) return `the file ${location}/CURRENT is damaged`;
  if (/\.ldb|\.sst|\.log|MANIFEST-/.test(detail)) return 'the file is named above';
  return `damaged files are among ${location}/CURRENT and ${location}/MANIFEST-*, which LevelDB reads first`;
}

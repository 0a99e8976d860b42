import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ArchiveListing, type ArchiveEntry, type EntryKind } from './payload.js';
import { PermanentStepError, StagingWriteError } from './ports.js';

const S_IFMT = 0o170000;
const KINDS = new Map<number, EntryKind>([
  [0o100000, 'file'],
  [0o040000, 'directory'],
  [0o120000, 'symlink'],
  [0o020000, 'device'],
  [0o060000, 'device'],
  [0o010000, 'fifo'],
]);

/** The Unix file type in the external attributes; DOS-made archives have none (a trailing / is a directory). */
function kindOf(entry: Entry): EntryKind {
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type !== 0) return KINDS.get(type) ?? 'other';
  return entry.fileName.endsWith('/') ? 'directory' : 'file';
}

/** yauzl refuses absolute and `..` names itself (and entry sizes that lie); all of it is permanent, except a failed write of the staged file. */
async function withZip<T>(file: string, use: (zip: ZipFile) => Promise<T>): Promise<T> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true });
  } catch (err) {
    throw new PermanentStepError(`not a valid zip archive: ${(err as Error).message}`);
  }
  try {
    return await use(zip);
  } catch (err) {
    if (err instanceof PermanentStepError || err instanceof StagingWriteError) throw err;
    throw new PermanentStepError(`not a valid zip archive: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
}

export function listZip(file: string, signal: AbortSignal, maxBytes: number): Promise<ArchiveEntry[]> {
  return withZip(file, async (zip) => {
    const listing = new ArchiveListing(maxBytes);
    for await (const entry of zip.eachEntry()) {
      signal.throwIfAborted();
      if (entry.isEncrypted()) throw new PermanentStepError(`'${entry.fileName}' is encrypted`);
      listing.add({ path: entry.fileName, kind: kindOf(entry), size: entry.uncompressedSize });
    }
    return listing.entries;
  });
}

/** Streams the named file's contents to `consume` (the first regular file with that name: a directory of that name is not it). */
export function readZipEntry<T>(file: string, name: string, consume: (data: Readable) => Promise<T>): Promise<T> {
  return withZip(file, async (zip) => {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName === name && kindOf(entry) === 'file') return consume(await zip.openReadStreamPromise(entry));
    }
    throw new PermanentStepError(`'${name}' vanished from the archive`);
  });
}

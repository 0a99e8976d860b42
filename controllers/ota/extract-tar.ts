import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { ArchiveListing, type ArchiveEntry, type EntryKind } from './payload.js';
import { PermanentStepError, StagingWriteError } from './ports.js';

const KINDS: Record<string, EntryKind> = {
  File: 'file',
  OldFile: 'file',
  ContiguousFile: 'file',
  Directory: 'directory',
  GNUDumpDir: 'directory',
  SymbolicLink: 'symlink',
  Link: 'hardlink',
  CharacterDevice: 'device',
  BlockDevice: 'device',
  FIFO: 'fifo',
};

/**
 * Reads a .tar, .tar.gz or .tgz (gzip is detected) entry by entry. The parser is strict: a
 * damaged archive is an error, not a warning; gzip bombs are cut by tar's decompression ratio cap.
 */
function parse(file: string, signal: AbortSignal, onEntry: (entry: ReadEntry) => Promise<void> | void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const input = createReadStream(file);
    let pending: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      input.destroy();
      parser.abort(err as Error);
      reject(err instanceof PermanentStepError || err instanceof StagingWriteError ? err : new PermanentStepError(`not a valid tar archive: ${(err as Error).message}`));
    };
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry) => {
        if (failed) return entry.resume();
        pending = pending.then(() => onEntry(entry)).catch(fail);
      },
    });
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    parser.on('error', fail);
    input.on('error', (err) => {
      // A read error is not the archive's fault: let it be retried.
      failed = true;
      reject(err);
    });
    parser.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      pending.then(() => (failed ? undefined : resolve()), fail);
    });
    input.pipe(parser);
  });
}

/** Lists the entries, stopping at the first refused one (payload.ts): the rest is not decompressed. */
export async function listTar(file: string, signal: AbortSignal, maxBytes: number): Promise<ArchiveEntry[]> {
  const listing = new ArchiveListing(maxBytes);
  await parse(file, signal, (entry) => {
    listing.add({ path: entry.path, kind: KINDS[entry.type] ?? 'other', size: entry.size ?? 0 });
    entry.resume();
  });
  return listing.entries;
}

/** Streams the named file's contents to `consume` (the first regular file with that path: a directory of that name is not it). */
export async function readTarEntry<T>(file: string, name: string, signal: AbortSignal, consume: (data: Readable) => Promise<T>): Promise<T> {
  let result: { value: T } | null = null;
  await parse(file, signal, async (entry) => {
    if (result || entry.path !== name || KINDS[entry.type] !== 'file') return void entry.resume();
    result = { value: await consume(entry as unknown as Readable) };
  });
  const found = result as { value: T } | null;
  if (!found) throw new PermanentStepError(`'${name}' vanished from the archive`);
  return found.value;
}

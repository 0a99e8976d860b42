import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createOwnFile } from './own-file.js';
import { choosePayload } from './payload.js';
import { PermanentStepError, StagingWriteError, type ExtractRequest, type Extractor } from './ports.js';

/** zip by its magic number; anything else is read as tar (plain or gzip, which tar detects). */
async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50; // "PK\x03\x04"
  } finally {
    await handle.close();
  }
}

/**
 * Stages the one payload of an archive: lists every entry first (nothing is written if any is
 * refused, and the listing stops at the first refused entry), picks the payload (payload.ts),
 * then streams only it to `out`, hashing it and holding it to the size cap whatever the headers
 * claimed.
 */
export const archiveExtractor: Extractor = {
  async extract(req: ExtractRequest) {
    // tar and yauzl load on the first update, not in every daemon at start-up (svcd's memory).
    const [{ listTar, readTarEntry }, { listZip, readZipEntry }] = await Promise.all([import('./extract-tar.js'), import('./extract-zip.js')]);
    const zip = await isZip(req.archive);
    const entries = zip ? await listZip(req.archive, req.signal, req.maxBytes) : await listTar(req.archive, req.signal, req.maxBytes);
    const payload = choosePayload(entries, req.name, req.maxBytes);
    const consume = (data: Readable) => writeCapped(data, req.out, req.maxBytes, req.signal);
    const written = zip ? await readZipEntry(req.archive, payload.path, consume) : await readTarEntry(req.archive, payload.path, req.signal, consume);
    return { ...written, entry: payload.path };
  },
};

async function writeCapped(data: Readable, out: string, maxBytes: number, signal: AbortSignal): Promise<{ digest: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const file = await staging(() => createOwnFile(out));
  try {
    for await (const chunk of data as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      bytes += chunk.length;
      if (bytes > maxBytes) throw new PermanentStepError(`the payload is larger than ota.max_extract_bytes (${maxBytes})`);
      hash.update(chunk);
      await staging(() => file.write(chunk));
    }
    await staging(() => file.sync());
  } finally {
    await file.close();
  }
  return { digest: hash.digest('hex'), bytes };
}

/** A failed write of the staged file is marked as such: the readers would take it for a bad archive (permanent). */
async function staging<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw new StagingWriteError(`cannot write the staged payload: ${(err as Error).message}`);
  }
}

import { appendFile, open } from 'node:fs/promises';

export interface InPlaceRotation {
  /** Why the file was not copied first. */
  reason: string;
  droppedBytes: number;
  keptBytes: number;
}

/**
 * Shrinks a log file without any free space: reads its newest `tailBytes` (from a line start),
 * truncates it to zero, and appends a notice line and those bytes. The program writes with
 * O_APPEND, so anything it writes meanwhile lands at the new end and nothing of it is lost (it
 * may come before the kept tail). Only the dropped part is gone, and the notice says how much.
 */
export async function truncateInPlace(file: string, tailBytes: number, reason: string): Promise<InPlaceRotation> {
  const handle = await open(file, 'r+');
  let tail: Buffer;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const start = Math.max(0, size - tailBytes);
    const buf = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    const read = buf.subarray(0, bytesRead);
    const newline = start > 0 ? read.indexOf(10) : -1;
    tail = start > 0 ? read.subarray(newline < 0 ? read.length : newline + 1) : read;
    await handle.truncate(0);
  } finally {
    await handle.close();
  }
  const droppedBytes = size - tail.length;
  const notice = `[svcd ${new Date().toISOString()}] log rotated in place: ${reason}; ${droppedBytes} older bytes dropped, the newest ${tail.length} kept\n`;
  await appendFile(file, Buffer.concat([Buffer.from(notice), tail]));
  return { reason, droppedBytes, keptBytes: tail.length };
}

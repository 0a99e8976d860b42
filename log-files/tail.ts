import { open } from 'node:fs/promises';
import { LOG_LINE_WINDOW } from '../state/log-window.js';

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

/** At most this much of the end of a file is read, whatever the file holds (no newline at all, say). */
export const TAIL_WINDOW_BYTES = LOG_LINE_WINDOW;

/**
 * The last `lines` lines of a file, read backwards in chunks so a large file is never loaded
 * whole. A missing file has no lines. A trailing partial line counts as a line. A `\r` before a
 * newline is dropped, as the log stream drops it (follow.ts), so `svc logs -f` can match the
 * two. At most `windowBytes` from the end are read: a line that starts before that is shown
 * from there.
 */
export async function tailLines(path: string, lines: number, windowBytes = TAIL_WINDOW_BYTES): Promise<string[]> {
  if (lines <= 0) return [];
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return []; // no file can be there yet
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const stop = Math.max(0, size - windowBytes);
    let position = size;
    const chunks: Buffer[] = []; // newest first; joined once (joining at every step was quadratic)
    let newlines = 0;
    while (position > stop && newlines <= lines) {
      const length = Math.min(CHUNK, position - stop);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      for (let i = 0; i < bytesRead; i++) if (chunk[i] === NEWLINE) newlines++;
      chunks.push(chunk.subarray(0, bytesRead));
    }
    // Enough newlines: the first line may be cut and is not needed. Stopped by the window: it is
    // the newest part of a longer line, shown as such.
    return splitLines(Buffer.concat(chunks.reverse()), position > 0 && newlines > lines).slice(-lines);
  } finally {
    await handle.close();
  }
}

/** The lines of `bytes`; the last one may lack its newline. */
function splitLines(bytes: Buffer, dropFirst: boolean): string[] {
  const out: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(NEWLINE, start);
    const end = nl === -1 ? bytes.length : nl > start && bytes[nl - 1] === CR ? nl - 1 : nl;
    if (!(dropFirst && start === 0)) out.push(bytes.toString('utf8', start, end));
    start = nl === -1 ? bytes.length : nl + 1;
  }
  return out;
}

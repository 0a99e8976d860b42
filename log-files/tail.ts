import { open } from 'node:fs/promises';

const CHUNK = 64 * 1024;

/**
 * The last `lines` lines of a file, read backwards in chunks so a large file is never loaded
 * whole. A missing file has no lines. A trailing partial line counts as a line.
 */
export async function tailLines(path: string, lines: number): Promise<string[]> {
  if (lines <= 0) return [];
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  try {
    const { size } = await handle.stat();
    let position = size;
    let buffered = Buffer.alloc(0);
    let newlines = 0;
    while (position > 0 && newlines <= lines) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      for (let i = 0; i < length; i++) if (chunk[i] === 10) newlines++;
      buffered = Buffer.concat([chunk, buffered]);
    }
    const text = buffered.toString('utf8');
    const all = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    if (position > 0) all.shift(); // the first line may be cut
    return (all.length === 1 && all[0] === '' ? [] : all).slice(-lines);
  } finally {
    await handle.close();
  }
}

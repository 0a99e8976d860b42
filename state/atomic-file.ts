import { open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/**
 * Replaces `file` with `text` so that a reader (or a crash) sees the old or the new content,
 * never a mix: write a temporary file beside it, fsync it, rename it over, fsync the directory.
 */
export async function writeFileAtomic(file: string, text: string, mode = 0o600): Promise<void> {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const handle = await open(tmp, 'w', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  const dir = await open(dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';

/** Room beyond the logs for the new MANIFEST, log and LevelDB's info log. */
const MARGIN = 256 * 1024;

/**
 * Whether the disk under a LevelDB has room to reopen it: the reopen writes the recovered
 * write-ahead logs out as a table (at most their size) plus a few small files. Checking first
 * keeps a store that is still full from closing (and failing its reads) on every retry.
 */
export async function hasRoomToReopen(location: string): Promise<boolean> {
  const fs = await statfs(location);
  let logs = 0;
  for (const name of await readdir(location)) if (/^\d+\.log$/.test(name)) logs += (await stat(join(location, name))).size;
  return fs.bavail * fs.bsize >= logs + MARGIN;
}

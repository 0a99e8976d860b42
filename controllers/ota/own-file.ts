import { constants } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';

/**
 * Files svcd creates beside the destination live in a folder that others may write (often the
 * program's own user, who knows the names from SVC_PROGRAM_ID). Nothing found there is followed:
 * a link planted at one of those names would have svcd, often root, write the artifact into the
 * file it points to, then give that file the destination's mode and owner.
 */

/** A new, empty file at `path` (mode 0600): whatever held the name (a link too) is removed first, never written through. */
export async function createOwnFile(path: string): Promise<FileHandle> {
  await rm(path, { force: true });
  // O_EXCL: a link put back between the removal and the open makes the open fail (the attempt is retried).
  return open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
}

/** Opens a regular file without following a link at `path` (the name itself is refused). */
export async function openRegular(path: string, flags = constants.O_RDONLY): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new Error(`${path} is a symbolic link (not followed)`);
    throw err;
  }
  const s = await handle.stat();
  if (!s.isFile()) {
    await handle.close();
    throw new Error(`${path} is not a regular file`);
  }
  return handle;
}

import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, link, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openRegular } from './own-file.js';
import type { FileMeta, OtaFs } from './ports.js';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Makes a directory entry change (rename, link, new file) durable. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The OTA filesystem port on node:fs. */
export const nodeOtaFs: OtaFs = {
  async digest(path) {
    const hash = createHash('sha256');
    try {
      await pipeline(createReadStream(path), hash);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    return hash.digest('hex');
  },

  async stat(path) {
    try {
      const s = await stat(path);
      return { mode: s.mode & 0o7777, uid: s.uid, gid: s.gid };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  },

  async link(existing, path) {
    await link(existing, path);
    await syncDir(dirname(path));
  },

  async copy(from, to) {
    const s = await stat(from);
    // COPYFILE_EXCL: a link put at `to` since it was removed is not written through.
    await copyFile(from, to, constants.COPYFILE_EXCL);
    const handle = await openRegular(to, constants.O_RDWR);
    try {
      await setMetaOf(handle, { mode: s.mode, uid: s.uid, gid: s.gid });
      await handle.sync();
    } finally {
      await handle.close();
    }
    await syncDir(dirname(to));
  },

  async rename(from, to) {
    await rename(from, to);
    await syncDir(dirname(to));
  },

  async setMeta(path, meta: FileMeta) {
    // Through a handle on the file itself: a link swapped in at `path` is refused, not followed.
    const handle = await openRegular(path);
    try {
      await setMetaOf(handle, meta);
    } finally {
      await handle.close();
    }
  },

  async remove(path) {
    await rm(path, { force: true });
  },
};

/**
 * The owner first, then the mode: a chown clears the set-user-ID and set-group-ID bits, even
 * root's. chown only when the owner differs: an unprivileged daemon can keep its own files' owner.
 */
async function setMetaOf(handle: FileHandle, meta: FileMeta): Promise<void> {
  const s = await handle.stat();
  const uid = meta.uid === -1 ? s.uid : meta.uid;
  const gid = meta.gid === -1 ? s.gid : meta.gid;
  if (uid !== s.uid || gid !== s.gid) await handle.chown(uid, gid);
  await handle.chmod(meta.mode & 0o7777);
}

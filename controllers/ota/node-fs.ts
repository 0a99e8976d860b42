import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, chown, copyFile, link, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
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

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
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
    await copyFile(from, to);
    await chmod(to, s.mode & 0o7777);
    await setOwner(to, s.uid, s.gid);
    await syncFile(to);
    await syncDir(dirname(to));
  },

  async rename(from, to) {
    await rename(from, to);
    await syncDir(dirname(to));
  },

  async setMeta(path, meta: FileMeta) {
    await chmod(path, meta.mode & 0o7777);
    await setOwner(path, meta.uid, meta.gid);
  },

  async remove(path) {
    await rm(path, { force: true });
  },
};

/** chown only when the owner differs: an unprivileged daemon can keep its own files' owner. */
async function setOwner(path: string, uid: number, gid: number): Promise<void> {
  const s = await stat(path);
  const wantUid = uid === -1 ? s.uid : uid;
  const wantGid = gid === -1 ? s.gid : gid;
  if (wantUid !== s.uid || wantGid !== s.gid) await chown(path, wantUid, wantGid);
}

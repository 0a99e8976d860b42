import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** An env_file larger than this is refused: it is read into memory at every start. */
export const ENV_FILE_MAX_BYTES = 1024 * 1024;

/** Whose permissions an env_file is read with (the program's identity when svcd switches user). */
export interface ReadAs {
  uid: number;
  gid: number;
  /** Its supplementary groups. */
  groups?: number[];
}

/** Why a file cannot be used as an env_file; the message names a reason, never the file's contents. */
export class EnvFileError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/**
 * Reads an env_file with bounds: a regular file only (a FIFO or a device would block or never
 * end), at most ENV_FILE_MAX_BYTES, and when `as` is given only if that identity may read it by
 * the file's owner, group and other bits (svcd runs as root; a program started as `nobody` must not
 * receive, through its environment, a file that `nobody` cannot read).
 */
export function readEnvFileBounded(path: string, as?: ReadAs): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    throw new EnvFileError((err as NodeJS.ErrnoException).code ?? 'cannot open');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new EnvFileError('not a regular file');
    if (as && !readableBy(st, as)) throw new EnvFileError(`not readable by uid ${as.uid}`);
    // Sized by the file (pseudo files report 0, so read in chunks up to the cap), not 1 MiB per start.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(st.size + 1, 4096), ENV_FILE_MAX_BYTES + 1 - length));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      length += n;
      if (length > ENV_FILE_MAX_BYTES) throw new EnvFileError(`larger than ${ENV_FILE_MAX_BYTES} bytes`);
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function readableBy(st: { uid: number; gid: number; mode: number }, as: ReadAs): boolean {
  if (as.uid === 0) return true;
  if (st.uid === as.uid) return (st.mode & 0o400) !== 0;
  if (st.gid === as.gid || as.groups?.includes(st.gid)) return (st.mode & 0o040) !== 0;
  return (st.mode & 0o004) !== 0;
}

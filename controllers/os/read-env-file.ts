import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** An env_file larger than this is refused: it is read into memory at every start. */
export const ENV_FILE_MAX_BYTES = 1024 * 1024;

/** Whose permissions an env_file is read with (the program's identity when svcd switches user). */
export interface ReadAs {
  uid: number;
  gid: number;
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
    const buffer = Buffer.alloc(ENV_FILE_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > ENV_FILE_MAX_BYTES) throw new EnvFileError(`larger than ${ENV_FILE_MAX_BYTES} bytes`);
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

function readableBy(st: { uid: number; gid: number; mode: number }, as: ReadAs): boolean {
  if (as.uid === 0) return true;
  if (st.uid === as.uid) return (st.mode & 0o400) !== 0;
  if (st.gid === as.gid) return (st.mode & 0o040) !== 0;
  return (st.mode & 0o004) !== 0;
}

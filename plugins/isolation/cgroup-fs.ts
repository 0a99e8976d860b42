/** What statfs says a directory is (isolation.h SVC_FS_*). */
export type FsKind = 'cgroup2' | 'cgroup1' | 'tmpfs' | 'other';

/** A failed cgroup file operation: the errno name (EACCES, EROFS, EBUSY...) and the path. */
export class CgroupFsError extends Error {
  override name = 'CgroupFsError';
  constructor(
    readonly code: string,
    readonly path: string,
    what: string,
  ) {
    super(`${what} ${path}: ${code}`);
  }
}

/**
 * The cgroup file operations the isolation controller needs, each a thin system call. The
 * isolation plugin (isolation.so) provides them; every method throws CgroupFsError on failure.
 */
export interface CgroupFs {
  /** The file system holding path; null when path cannot be read (missing). */
  fsKind(path: string): FsKind | null;
  /** null when entries may be created in the directory, else why not (EROFS, EACCES...). */
  notWritable(path: string): string | null;
  mkdir(path: string): void;
  write(path: string, text: string): void;
  /** The file's text, or null when it does not exist. */
  read(path: string): string | null;
  /** Removes a cgroup directory (EBUSY while processes remain in it). */
  remove(path: string): void;
  /** Names of the sub-directories (child cgroups) of path; none when it does not exist. */
  children(path: string): string[];
}

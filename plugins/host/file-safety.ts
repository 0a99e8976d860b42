import { realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

/** What svcd makes of who could replace a library before it maps it (svcd usually runs as root, and a library runs as svcd). */
export interface LibrarySafety {
  /** Why it must not be loaded: any local user could replace it. */
  refuse: string | null;
  /** Why a person should look: a user other than root and svcd's own could. */
  warn: string | null;
}

/**
 * Looks once at a library, its directory (the plugin directory) and the real directory behind a
 * symbolic link:
 * - refused when the file, or one of those directories, is writable by every user (sticky bit or
 *   not): anyone could put another library in its place;
 * - a warning when the real file or its directory belongs to a user other than root and the one
 *   svcd runs as. A warning, not a refusal: a checkout owned by its developer and run with sudo
 *   is common.
 *
 * A file that cannot be examined is left to the loader, which says why.
 */
export function librarySafety(file: string, uid = process.getuid?.() ?? 0): LibrarySafety {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return { refuse: null, warn: null };
  }
  const stats = new Map<string, Stats | null>();
  const statOf = (path: string): Stats | null => {
    if (!stats.has(path)) {
      try {
        stats.set(path, statSync(path));
      } catch {
        stats.set(path, null);
      }
    }
    return stats.get(path) ?? null;
  };
  return { refuse: writableByAll(file, real, statOf), warn: foreignOwner(file, real, statOf, uid) };
}

function writableByAll(file: string, real: string, statOf: (path: string) => Stats | null): string | null {
  const mode = statOf(real)?.mode;
  if (mode !== undefined && mode & 0o002) return `${file}: is writable by every user (mode ${octal(mode)}), so any local user could replace code svcd runs; chmod o-w ${real}`;
  for (const dir of new Set([dirname(file), dirname(real)])) {
    const dirMode = statOf(dir)?.mode;
    if (dirMode !== undefined && dirMode & 0o002) {
      return `${file}: its directory ${dir} is writable by every user (mode ${octal(dirMode)}), so any local user could put another library in its place; chmod o-w ${dir}`;
    }
  }
  return null;
}

function foreignOwner(file: string, real: string, statOf: (path: string) => Stats | null, uid: number): string | null {
  for (const path of [real, dirname(real)]) {
    const owner = statOf(path)?.uid;
    if (owner !== undefined && owner !== 0 && owner !== uid) {
      return `${file}: ${path === real ? 'the library' : `its directory ${path}`} belongs to uid ${owner}, who can replace code svcd runs as uid ${uid}; chown ${uid} ${path} unless that user is trusted`;
    }
  }
  return null;
}

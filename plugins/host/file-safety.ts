import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

const modeOf = (path: string): number | null => {
  try {
    return statSync(path).mode;
  } catch {
    return null;
  }
};

/**
 * Why svcd must not load `file` because any local user could replace it before svcd maps it:
 * the file writable by every user, or the directory holding it (the plugin directory, and the
 * real one behind a symbolic link) writable by every user, where anyone could put another
 * library in its place. svcd usually runs as root, and a library runs as svcd. Null when
 * neither holds; a file that cannot be examined is left to the loader, which says why.
 */
export function unsafeLibrary(file: string): string | null {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return null;
  }
  const mode = modeOf(real);
  if (mode !== null && mode & 0o002) return `${file}: is writable by every user (mode ${octal(mode)}), so any local user could replace code svcd runs; chmod o-w ${real}`;
  for (const dir of new Set([dirname(file), dirname(real)])) {
    const dirMode = modeOf(dir);
    if (dirMode !== null && dirMode & 0o002) {
      return `${file}: its directory ${dir} is writable by every user (mode ${octal(dirMode)}), so any local user could put another library in its place; chmod o-w ${dir}`;
    }
  }
  return null;
}

/**
 * A warning when `file`, or the directory holding it, belongs to a user other than root and the
 * one svcd runs as: that user can replace a library whose code runs as svcd (usually root). A
 * warning, not a refusal: a checkout owned by its developer and run with sudo is common. Null
 * when the owners are trusted, or the file cannot be examined (the loader says why).
 */
export function untrustedOwner(file: string, uid = process.getuid?.() ?? 0): string | null {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return null;
  }
  for (const path of [real, dirname(real)]) {
    let owner: number;
    try {
      owner = statSync(path).uid;
    } catch {
      continue;
    }
    if (owner !== 0 && owner !== uid) {
      return `${file}: ${path === real ? 'the library' : `its directory ${path}`} belongs to uid ${owner}, who can replace code svcd runs as uid ${uid}; chown ${uid} ${path} unless that user is trusted`;
    }
  }
  return null;
}

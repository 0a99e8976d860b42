import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** Resolves a custom log path: relative paths are taken under `logDir`. */
export function resolveLogPath(path: string, logDir: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(logDir, path);
}

/**
 * Checks that a custom log path resolves under `logDir`, following symlinks of every part that
 * exists (so neither `..` nor a symlinked directory can escape). Returns a problem or null.
 */
export function checkLogPath(path: string, logDir: string): string | null {
  const outside = `must resolve under storage.log_dir (${logDir})`;
  const target = realExisting(resolveLogPath(path, logDir));
  return isInside(target, realExisting(resolve(logDir))) ? null : outside;
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The real path of the deepest existing ancestor, with the missing tail appended. */
function realExisting(path: string): string {
  let existing = path;
  const tail: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return path;
    tail.unshift(existing.slice(parent.length + 1));
    existing = parent;
  }
  return join(realOrSelf(existing), ...tail);
}

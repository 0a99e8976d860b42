import { conflict } from '../state/errors.js';

const WHY: Record<string, string> = {
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/**
 * A log file svcd cannot read or empty, as an error the client can act on (409 naming the file
 * and why) rather than a 500: the path is taken by a directory, say. Other errors as they are.
 */
export function logFileError(source: 'stdout' | 'stderr', path: string, action: 'read' | 'empty', err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined || !(code in WHY)) return err;
  return conflict(`cannot ${action} the ${source} log file ${path}: ${WHY[code]} (${code})`);
}

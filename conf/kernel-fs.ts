import { resolve } from 'node:path';

/**
 * True for a path under /proc or /sys: nothing svc writes can live there, and Node 20's recursive
 * mkdir spins forever on a missing folder under /proc (mkdir answers ENOENT however often it is
 * retried), so such a path is refused before anything is created.
 */
export function onKernelFs(path: string): boolean {
  return /^\/(proc|sys)(\/|$)/.test(resolve(path));
}

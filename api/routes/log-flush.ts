import Router from '@koa/router';
import { truncate } from 'node:fs/promises';
import { programOfPath } from '../program-path.js';
import { logPaths } from '../../log-files/paths.js';
import { logFileError } from '../../log-files/file-errors.js';
import type { ApiDeps } from '../deps.js';
import type { LogFlushResult } from '../wire.js';

/**
 * `POST /api/v1/programs/{id}/logs/flush` (`svc flush`, as `pm2 flush`): empties the program's
 * stdout and stderr files in place. The program keeps writing through its O_APPEND descriptors,
 * so its next line lands at the start of the emptied file; rotated copies (`.1`...) are kept.
 */
export function logFlushRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post('/programs/:id/logs/flush', async (ctx) => {
    const record = programOfPath(deps.store, ctx.params.id);
    const paths = logPaths(record.id, record.config, deps.config.storage.log_dir);
    const flushed: string[] = [];
    for (const source of ['stdout', 'stderr'] as const) {
      const file = paths[source];
      if (flushed.includes(file)) continue; // both streams to one file
      try {
        await truncate(file, 0);
        flushed.push(file);
      } catch (err) {
        // A program that never wrote has no file yet: nothing to flush.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw logFileError(source, file, 'empty', err);
      }
    }
    ctx.body = { id: record.id, flushed } satisfies LogFlushResult;
  });
  return router;
}

import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { writersOfFilesIn } from './open-writers.js';
import { StackDirectory, type StackDirectoryDeps } from './directory.js';
import { isStackFileName } from './file-names.js';
import { sharedDocumentParser } from './parse-worker/parser.js';

export interface WatchedStacks {
  directory: StackDirectory;
  close(): Promise<void>;
}

/**
 * Production glue for the stacks directory: creates it, schedules every stack file in it and
 * every file it applied before (the start-up pass), and when `watch` is on, forwards chokidar
 * events for files directly inside it.
 * Sub-folders are not applied on their own: put included files there.
 */
export async function startStackDirectory(opts: Omit<StackDirectoryDeps, 'read'> & { watch: boolean; maxBytes?: number }): Promise<WatchedStacks> {
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const parser = opts.parser ?? sharedDocumentParser();
  const directory = new StackDirectory({ writers: writersOfFilesIn(dir), ...opts, dir, parser, read: (path) => readBounded(path, maxBytes) });
  // The start-up pass: every file listed now, and every file applied in an earlier run (one
  // deleted while svcd was down is pruned, as the watch would have done).
  await directory.startUp(readdirSync(dir));
  let watcher: FSWatcher | null = null;
  if (opts.watch) {
    watcher = watch(dir, {
      ignoreInitial: true,
      depth: 0,
      ignored: (path, stats) => path !== dir && stats?.isFile() === true && !isStackFileName(basename(path)),
    });
    const forward = (path: string) => {
      if (dirname(resolve(path)) === dir) directory.notify(basename(path));
    };
    watcher.on('add', forward).on('change', forward).on('unlink', forward);
    watcher.on('error', (err) => opts.log.warn('stacks directory watch error', { dir, error: String(err) }));
    await new Promise<void>((r) => watcher?.once('ready', () => r()));
    directory.setWatching(true);
  }
  return {
    directory,
    async close() {
      directory.close();
      await watcher?.close();
      await directory.idle();
    },
  };
}

/** A stack file larger than the request body cap is refused like a body would be (a regular file only). */
function readBounded(path: string, maxBytes: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK); // a FIFO must not block the daemon
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > maxBytes) throw new Error(`larger than ${maxBytes} bytes (server.max_body_bytes)`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

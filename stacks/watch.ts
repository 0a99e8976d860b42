import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, watch as watchFs, type FSWatcher as FsWatcher } from 'node:fs';
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
 * events for files directly inside it and for the files they include (wherever those are).
 * Sub-folders are not applied on their own: put included files there.
 */
export async function startStackDirectory(opts: Omit<StackDirectoryDeps, 'read'> & { watch: boolean; maxBytes?: number }): Promise<WatchedStacks> {
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const parser = opts.parser ?? sharedDocumentParser();
  // The files the stack files include (anywhere: lib/common.toml, ../shared.toml), watched as well.
  let followed: ReadonlySet<string> = new Set();
  let watcher: FSWatcher | null = null;
  const follow = (paths: ReadonlySet<string>) => {
    const before = followed;
    followed = paths;
    if (!watcher) return;
    const added = [...paths].filter((p) => !before.has(p));
    const gone = [...before].filter((p) => !paths.has(p) && dirname(p) !== dir);
    if (added.length > 0) watcher.add(added);
    if (gone.length > 0) watcher.unwatch(gone);
  };
  const directory = new StackDirectory({ writers: writersOfFilesIn(dir), ...opts, dir, parser, follow, read: (path) => readBounded(path, maxBytes) });
  // The start-up pass: every file listed now, and every file applied in an earlier run (one
  // deleted while svcd was down is pruned, as the watch would have done).
  await directory.startUp(readdirSync(dir));
  let links: { close(): void } | null = null;
  let swapping = Promise.resolve();
  let closed = false;
  if (opts.watch) {
    const forward = (path: string) => {
      const abs = resolve(path);
      if (dirname(abs) === dir) directory.notify(basename(abs));
      directory.notifyPath(abs);
    };
    // A followed include that is deleted is watched again, so that writing it anew is seen.
    const unlinked = (path: string) => {
      forward(path);
      if (followed.has(resolve(path)) && dirname(resolve(path)) !== dir) watcher?.add(resolve(path));
    };
    const startWatcher = async (): Promise<FSWatcher> => {
      const w = watch([dir, ...followed], {
        ignoreInitial: true,
        depth: 0,
        // Among the files directly inside the directory, only stack files and included ones.
        ignored: (path, stats) => dirname(resolve(path)) === dir && stats?.isFile() === true && !isStackFileName(basename(path)) && !followed.has(resolve(path)),
      });
      w.on('add', forward).on('change', forward).on('unlink', unlinked);
      w.on('error', (err) => opts.log.warn('stacks directory watch error', { dir, error: String(err) }));
      await new Promise<void>((r) => w.once('ready', () => r()));
      return w;
    };
    watcher = await startWatcher();
    // A symbolic link on the directory's path swapped to another target (a deploy's
    // current -> releases/42): the watch follows the new target and every file is looked at again.
    links = watchLinkSwaps(dir, (target) => {
      swapping = swapping.then(async () => {
        if (closed) return;
        opts.log.info('stacks directory is another folder now (a link on its path changed): reading every file again', { dir, target });
        const old = watcher;
        watcher = await startWatcher();
        await old?.close();
        if (closed) return;
        let listing: string[] = [];
        try {
          listing = readdirSync(dir);
        } catch (err) {
          opts.log.warn('stacks directory cannot be listed', { dir, error: String(err) });
        }
        directory.rescan(listing);
      });
    });
    directory.setWatching(true);
  }
  return {
    directory,
    async close() {
      closed = true;
      directory.close();
      links?.close();
      await swapping;
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

/**
 * Calls `swapped` with the new target when a symbolic link on the path of `dir` (itself or a
 * folder above it) is replaced and `dir` leads somewhere else. Each link's parent folder is
 * watched (inotify: nothing wakes while nothing changes).
 */
function watchLinkSwaps(dir: string, swapped: (target: string) => void): { close(): void } {
  let target = realpathOrNull(dir);
  let watchers: FsWatcher[] = [];
  const arm = () => {
    for (const w of watchers) w.close();
    watchers = [];
    for (const link of linksOnPath(dir)) {
      try {
        const w = watchFs(dirname(link), { persistent: false }, (_type, name) => {
          if (name === basename(link)) check();
        });
        w.on('error', () => undefined);
        watchers.push(w);
      } catch {
        // a folder svcd cannot watch: its link is not followed
      }
    }
  };
  const check = () => {
    const now = realpathOrNull(dir);
    if (now === null || now === target) return; // mid-swap (ln -sfn removes, then creates) or unchanged
    target = now;
    arm();
    swapped(now);
  };
  arm();
  return {
    close() {
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}

/** The components of `path` that are symbolic links, as written (not resolved). */
function linksOnPath(path: string): string[] {
  const out: string[] = [];
  for (let p = path; dirname(p) !== p; p = dirname(p)) {
    try {
      if (lstatSync(p).isSymbolicLink()) out.push(p);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

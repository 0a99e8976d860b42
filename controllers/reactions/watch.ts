import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { parseReactionsFile } from './parse-file.js';
import type { Reactor } from './reactor.js';

export interface ReactionsFileDeps {
  file: string;
  root: string;
  reactor: Reactor;
  log: { info(msg: string, fields?: Record<string, unknown>): void; warn(msg: string, fields?: Record<string, unknown>): void };
  watch: boolean;
}

/**
 * Loads `conf/reactions.toml` (absent: no reactions) and, with `watch`, reloads it on every
 * change seen by chokidar: a valid edit replaces the set, an invalid one keeps the last good
 * set in force and is logged and shown in `GET /api/v1/system/reactions`. Deleting the file
 * removes every reaction. Returns what closes the watch.
 */
export async function startReactionsFile(deps: ReactionsFileDeps): Promise<{ close(): Promise<void>; reload(): Promise<void> }> {
  let chain = Promise.resolve();
  const reload = () => (chain = chain.then(() => loadOnce(deps)));
  await reload();
  let watcher: FSWatcher | null = null;
  if (deps.watch) {
    // The directory, not the file: an editor's rename-over and a file created later are both seen.
    const dir = dirname(deps.file);
    const name = basename(deps.file);
    await mkdir(dir, { recursive: true });
    watcher = watch(dir, { ignoreInitial: true, depth: 0, ignored: (path, stats) => path !== dir && stats?.isFile() === true && basename(path) !== name, awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 25 } });
    const changed = (path: string) => {
      if (basename(path) === name && dirname(path) === dir) void reload();
    };
    watcher.on('add', changed).on('change', changed).on('unlink', changed);
    watcher.on('error', (err) => deps.log.warn('reactions file watch error', { file: deps.file, error: String(err) }));
    await new Promise<void>((r) => watcher?.once('ready', () => r()));
    deps.reactor.watching = true;
  }
  return {
    reload,
    async close() {
      await watcher?.close();
      await chain;
    },
  };
}

async function loadOnce(deps: ReactionsFileDeps): Promise<void> {
  let text: string;
  try {
    text = await readFile(deps.file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      deps.reactor.load([]);
      return;
    }
    deps.reactor.fail([`${deps.file}: cannot read: ${(err as Error).message}`]);
    deps.log.warn('reactions file not loaded; the previous reactions stay in force', { file: deps.file, error: (err as Error).message });
    return;
  }
  const parsed = parseReactionsFile(deps.file, text, deps.root);
  if (!parsed.ok) {
    deps.reactor.fail(parsed.errors);
    deps.log.warn('reactions file is invalid; the previous reactions stay in force', { file: deps.file, errors: parsed.errors });
    return;
  }
  deps.reactor.load(parsed.reactions);
  deps.log.info('reactions loaded', { file: deps.file, reactions: parsed.reactions.map((r) => r.name) });
}

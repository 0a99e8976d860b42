import { watch } from 'chokidar';
import { basename, dirname, resolve } from 'node:path';

/**
 * Calls `onChange` when the file is added, changed or removed (an editor's rename-over counts).
 * Watches the folder, so a file created later is seen too. Resolves once the watcher is ready.
 */
export async function watchFile(file: string, onChange: () => void, onError: (err: unknown) => void): Promise<() => Promise<void>> {
  const dir = dirname(resolve(file));
  const name = basename(file);
  const watcher = watch(dir, { ignoreInitial: true, depth: 0, ignored: (path) => path !== dir && basename(path) !== name });
  const forward = (path: string) => {
    if (resolve(path) === resolve(file)) onChange();
  };
  watcher.on('add', forward).on('change', forward).on('unlink', forward);
  watcher.on('error', onError);
  await new Promise<void>((r) => watcher.once('ready', () => r()));
  return () => watcher.close();
}

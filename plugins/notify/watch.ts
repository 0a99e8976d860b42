import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { watch } from 'chokidar';

/** Follow-up looks after a watch event: chokidar can miss a second rename-over that comes soon after the first. */
const SETTLE_MS = [250, 750, 1500];

function signature(file: string): string {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return 'absent';
  }
}

/**
 * Calls `onChange` when the file is added, changed or removed (an editor's rename-over counts).
 * chokidar reports the change; because it can drop a second replacement that follows within
 * about a second (its directory throttle), every event is followed by a few stat checks that
 * report a change chokidar did not. Resolves once the watcher is ready.
 */
export async function watchFile(file: string, onChange: () => void, onError: (err: unknown) => void): Promise<() => Promise<void>> {
  const path = resolve(file);
  let last = signature(path);
  const timers = new Set<NodeJS.Timeout>();
  const check = (force: boolean) => {
    const now = signature(path);
    if (!force && now === last) return;
    last = now;
    onChange();
  };
  const onEvent = () => {
    check(true);
    for (const ms of SETTLE_MS) {
      const t = setTimeout(() => {
        timers.delete(t);
        check(false);
      }, ms);
      t.unref();
      timers.add(t);
    }
  };
  // The folder, not the file: a file created after start is seen too.
  const dir = dirname(path);
  const watcher = watch(dir, { ignoreInitial: true, depth: 0, ignored: (p) => p !== dir && basename(p) !== basename(path) });
  const forward = (p: string) => {
    if (resolve(p) === path) onEvent();
  };
  watcher.on('add', forward).on('change', forward).on('unlink', forward);
  watcher.on('error', onError);
  await new Promise<void>((r) => watcher.once('ready', () => r()));
  return async () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    await watcher.close();
  };
}

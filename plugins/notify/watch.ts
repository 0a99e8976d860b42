import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { watch } from 'chokidar';

/** Follow-up looks after a watch event: chokidar can miss a second rename-over that comes soon after the first. */
const SETTLE_MS = [250, 750, 1500];
/** A file being written (`cat > notify.toml`, a slow copy) is read once its size and time held this long. */
const STABLE_MS = 150;
const STABLE_POLL_MS = 25;

function signature(file: string): string {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return 'absent';
  }
}

/**
 * Calls `onChange` when the file is added, changed or removed (an editor's rename-over counts),
 * once the file has stopped changing for STABLE_MS: a half-written file that parsed (cut at a
 * channel's end) removed the channels after the cut, and with them their retries and groups.
 * chokidar reports the change; because it can drop a second replacement that follows within
 * about a second (its directory throttle), every event is followed by a few stat checks that
 * report a change chokidar did not. Resolves once the watcher is ready.
 */
export async function watchFile(file: string, onChange: () => void, onError: (err: unknown) => void): Promise<() => Promise<void>> {
  const path = resolve(file);
  let last = signature(path);
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };
  let settling = false;
  /** Polls until the signature held for STABLE_MS, then reports (one report for a burst of events). */
  const whenStable = (seen: string, heldMs: number) => {
    const now = signature(path);
    if (now !== seen) return after(STABLE_POLL_MS, () => whenStable(now, 0));
    if (heldMs < STABLE_MS) return after(STABLE_POLL_MS, () => whenStable(now, heldMs + STABLE_POLL_MS));
    settling = false;
    last = now;
    onChange();
    for (const ms of SETTLE_MS) after(ms, () => signature(path) !== last && onEvent());
  };
  const onEvent = () => {
    if (settling) return;
    settling = true;
    whenStable(signature(path), 0);
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

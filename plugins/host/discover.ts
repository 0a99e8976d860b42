import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIBRARY_SUFFIX } from './abi.js';

/** A plugin library found in `$SVC_ROOT/plugins/`. */
export interface PluginFile {
  /** The base name without the suffix: `security` for `security.so`. */
  name: string;
  file: string;
}

/** The plugin directory of an installation. */
export function pluginDir(root: string): string {
  return join(root, 'plugins');
}

/** Every `<name>.so` (`.dylib` on macOS) in `dir`, sorted by name; none when `dir` is absent. */
export function discoverPlugins(dir: string): PluginFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .filter((n) => n.endsWith(LIBRARY_SUFFIX) && n.length > LIBRARY_SUFFIX.length)
    .sort()
    .map((n) => ({ name: n.slice(0, -LIBRARY_SUFFIX.length), file: join(dir, n) }));
}

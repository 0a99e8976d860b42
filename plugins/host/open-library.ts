import type { LibraryHandle } from 'koffi';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { foreignArchitecture } from './elf-machine.js';
import { ABI_EXPORTS, LIBRARY_SUFFIX, PLUGIN_ABI } from './abi.js';
import type { PluginSpec } from './catalog.js';
import { PluginError } from './plugin-error.js';

/** koffi (a native module) loads with the first plugin: a daemon without plugins never maps it. */
const requireCjs = createRequire(import.meta.url);
const koffi = (): typeof import('koffi') => requireCjs('koffi') as typeof import('koffi');

/** A bound C function (koffi converts arguments and the result). */
export type NativeFunction = ReturnType<LibraryHandle['func']>;

/** A plugin library loaded in this process, its ABI checked and every required export bound. */
export interface PluginLibrary {
  name: string;
  version: string;
  file: string;
  functions: Record<string, NativeFunction>;
  library: LibraryHandle;
}

/**
 * Loads `file` and checks it against the ABI and `spec`: the ABI version, the name (equal to
 * the file's base name), a version string, and every export the spec requires. Throws a
 * PluginError naming the file. A library that crashes the process while loading cannot be
 * caught here: the probe (probe.ts) runs this same check in a child process first.
 */
export function openPluginLibrary(file: string, spec: PluginSpec): PluginLibrary {
  let library: LibraryHandle;
  try {
    library = koffi().load(file);
  } catch (err) {
    throw new PluginError(file, `cannot be loaded: ${danglingLink(file) ?? foreignArchitecture(file) ?? (err as Error).message}`);
  }
  const bind = (symbol: string, prototype: string, what: string): NativeFunction => {
    try {
      return library.func(prototype);
    } catch {
      throw new PluginError(file, `missing export ${symbol} (${what})`);
    }
  };
  const abiFn = bind('svc_plugin_abi', ABI_EXPORTS.svc_plugin_abi, 'not an svc plugin: every plugin exports svc_plugin_abi');
  const abi = abiFn() as number;
  if (abi !== PLUGIN_ABI) {
    throw new PluginError(file, `plugin ABI ${abi}, but this svcd speaks ABI ${PLUGIN_ABI}; rebuild it (npm run build) and reinstall it (svc plugins install)`);
  }
  const name = bind('svc_plugin_name', ABI_EXPORTS.svc_plugin_name, 'required by ABI 1')() as string | null;
  const expected = basename(file, LIBRARY_SUFFIX);
  if (name !== expected) throw new PluginError(file, `says it is plugin '${String(name)}', but the file is named for '${expected}'`);
  const version = bind('svc_plugin_version', ABI_EXPORTS.svc_plugin_version, 'required by ABI 1')() as string | null;
  if (typeof version !== 'string' || version.length === 0 || version.length > 64) throw new PluginError(file, 'svc_plugin_version must return a non-empty string');
  const functions: Record<string, NativeFunction> = {};
  for (const [symbol, prototype] of Object.entries(spec.exports)) functions[symbol] = bind(symbol, prototype, `required by the ${name} plugin`);
  return { name, version, file, functions, library };
}

/** "a symbolic link to X, which does not exist" for a link whose target is gone; null otherwise. */
function danglingLink(file: string): string | null {
  try {
    if (!lstatSync(file).isSymbolicLink() || existsSync(file)) return null;
    return `it is a symbolic link to ${readlinkSync(file)}, which does not exist`;
  } catch {
    return null;
  }
}

import { join } from 'node:path';
import type { PluginRuntime } from '../../plugins/boot/runtime.js';
import { IsolationNative } from '../../plugins/isolation/native.js';
import type { CgroupFs } from '../../plugins/isolation/cgroup-fs.js';
import type { IsolationHost } from './controller.js';
import { judgeHost, prepareParent, probeHost } from './detect.js';

export const ISOLATION = 'isolation';

/** Why the isolation plugin is not loaded, from what start-up decided (plugins/boot). */
export function notLoadedReason(plugins: PluginRuntime | undefined, pluginDir: string): string {
  const skipped = plugins?.skipped.find((s) => s.name === ISOLATION);
  if (skipped) return `isolation plugin not loaded: ${skipped.reason}`;
  if (!plugins?.license) return 'isolation plugin not loaded (it needs a license granting isolation; docs/isolation.md)';
  if (!plugins.license.claims.grants.includes(ISOLATION)) return 'isolation plugin not loaded: the license does not grant isolation';
  return `isolation plugin not loaded: ${join(pluginDir, 'isolation.so')} is not installed (svc plugins install)`;
}

/**
 * Decides once, at start-up, whether resource_limits can be enforced: the plugin is loaded, the
 * cgroup root is cgroup v2 with the cpu and memory controllers and writable, and `<root>/svc`
 * could be prepared. `fs` replaces the plugin's file operations (tests).
 */
export function isolationHost(opts: { plugins: PluginRuntime | undefined; pluginDir: string; cgroupRoot: string; uid: number; fs?: CgroupFs }): IsolationHost {
  const lib = opts.plugins?.libraries.find((l) => l.name === ISOLATION);
  const fs = opts.fs ?? (lib ? new IsolationNative(lib) : null);
  if (!fs) return { reason: notLoadedReason(opts.plugins, opts.pluginDir) };
  const verdict = judgeHost(probeHost(fs, opts.cgroupRoot, opts.uid));
  if (!verdict.ok) return { reason: verdict.reason };
  const refused = prepareParent(fs, opts.cgroupRoot);
  if (refused) return { reason: refused };
  return { fs, parent: join(opts.cgroupRoot, 'svc') };
}

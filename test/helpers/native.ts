import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, REPO } from './daemon.js';

export const PLUGIN_INCLUDE = join(REPO, 'plugins', 'include');
/** The real security plugin as `npm run build` made it. */
export const SECURITY_SO = join(REPO, 'dist', 'plugins', 'security.so');
/** The real isolation plugin as `npm run build` made it. */
export const ISOLATION_SO = join(REPO, 'dist', 'plugins', 'isolation.so');
/** The real ui plugin as `npm run build` made it. */
export const UI_SO = join(REPO, 'dist', 'plugins', 'ui.so');

/** Compiles C sources with the system compiler (as scripts/build-native.mjs does); throws with cc's output. */
export function compileC(out: string, sources: string[], flags: string[]): string {
  mkdirSync(join(out, '..'), { recursive: true });
  const run = spawnSync(process.env.CC ?? 'cc', ['-std=c11', '-D_GNU_SOURCE', '-Wall', '-Wextra', '-Werror', `-I${PLUGIN_INCLUDE}`, ...flags, '-o', out, ...sources], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cc failed for ${out}:\n${run.stderr}`);
  return out;
}

/** Builds test/fixtures/plugins/<fixture>.c into `<dir>/<name>.so` (a library named like a plugin). */
export function fixturePlugin(fixture: string, dir: string, name: string): string {
  return compileC(join(dir, `${name}.so`), [join(FIXTURES, 'plugins', `${fixture}.c`)], ['-shared', '-fPIC', '-fvisibility=hidden']);
}

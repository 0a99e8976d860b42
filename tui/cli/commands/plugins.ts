import { chmodSync, copyFileSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { table } from '../format.js';
import { defaultRoot } from '../../../conf/default-root.js';
import { distPath } from '../../../conf/dist-path.js';

/** Where `npm run build` puts the plugin libraries: dist/plugins/<name>.so. */
const BUILT = distPath('plugins/');
const SUFFIX = process.platform === 'darwin' ? '.dylib' : '.so';

interface PluginsView {
  mode: string;
  loaded: { name: string; version: string; file: string }[];
  skipped: { name: string; file: string; reason: string }[];
}

/** The names of the libraries built in `dir`; none when the folder is not there (the native build has not run). */
export function builtPlugins(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CliError(`cannot read ${dir}: ${(err as Error).message}`);
  }
}

/** `svc plugins install` copies the built libraries into an installation; `list` asks the daemon. */
export function registerPlugins(program: Command, ctx: CliContext): void {
  const cmd = program.command('plugins').description('install plugin libraries and list what svcd loaded');

  cmd
    .command('install [names...]')
    .description('copy the built plugin libraries (all, or the named ones) into <root>/plugins/; restart svcd to load them')
    .option('--root <dir>', 'installation root (default: $SVC_ROOT, else the current directory; ./.svc in a source checkout)')
    .action((names: string[], o: { root?: string }) => {
      const root = o.root ? resolve(o.root) : defaultRoot(process.cwd(), process.env).root;
      const built = builtPlugins(BUILT);
      if (built.length === 0) throw new CliError(`no plugin libraries in ${BUILT}: run npm run build first`);
      const unknown = names.filter((n) => !built.includes(n));
      if (unknown.length > 0) throw new CliError(`unknown plugin(s): ${unknown.join(', ')} (built: ${built.join(', ')})`, 2);
      const chosen = names.length > 0 ? names : built;
      const dir = join(root, 'plugins');
      mkdirSync(dir, { recursive: true });
      for (const name of chosen) {
        // Copy beside, then rename over: a running svcd never maps a half-written library.
        const target = join(dir, `${name}${SUFFIX}`);
        const tmp = `${target}.${process.pid}.tmp`;
        copyFileSync(join(BUILT, `${name}${SUFFIX}`), tmp);
        chmodSync(tmp, 0o755);
        renameSync(tmp, target);
        if (!ctx.json()) ctx.print(`installed ${target}`);
      }
      if (ctx.json()) ctx.print(JSON.stringify({ dir, installed: chosen }));
      else ctx.print('restart svcd to load them (they load only with a license that grants them)');
    });

  cmd
    .command('list')
    .description('plugins svcd loaded, and libraries it found but did not load (GET /api/v1/system/plugins)')
    .action(async () => {
      const view = await ctx.client().get<PluginsView>('/api/v1/system/plugins');
      if (ctx.json()) return ctx.print(JSON.stringify(view, null, 2));
      const rows = [
        ...view.loaded.map((p) => [p.name, p.version, 'loaded', p.file]),
        ...view.skipped.map((p) => [p.name, '-', `not loaded: ${p.reason}`, p.file]),
      ];
      ctx.print(rows.length > 0 ? table(['NAME', 'VERSION', 'STATE', 'FILE'], rows) : `no plugins (auth mode: ${view.mode})`);
    });
}

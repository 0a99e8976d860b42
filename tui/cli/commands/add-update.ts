import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { configFromOptions, withConfigOptions, type ConfigOptions } from '../config-options.js';
import { routes } from '../../client/routes.js';
import { resolvePrograms } from '../programs.js';

export function registerAddUpdate(program: Command, ctx: CliContext): void {
  withConfigOptions(
    program
      .command('add <name> [command...]')
      .description('register a program and start it (unless --no-autostart)')
      .addHelpText('after', '\nOne word after the name is a command line (split like a shell, no expansion);\nseveral words are the executable and its exact arguments:  svc add web -- node server.js --port 8080'),
  ).action(async (name: string, words: string[], o: ConfigOptions) => {
    const config = await configFromOptions(o, 'cli:add');
    config.name = name;
    if (words.length === 1) config.command = words[0];
    else if (words.length > 1) [config.command, config.args] = [words[0], words.slice(1)];
    const res = await routes.createProgram(ctx.client(), config);
    ctx.print(ctx.json() ? JSON.stringify(res) : `added ${name} (${res.id})`);
  });

  withConfigOptions(
    program
      .command('update <program> [command...]')
      .description('change fields of a program (name or id); takes effect at its next start')
      .option('--name <new-name>', 'rename the program')
      .option('--unset <field>', 'remove an optional field (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
  ).action(async (ref: string, words: string[], o: ConfigOptions & { name?: string; unset?: string[] }) => {
    const [p] = await resolvePrograms(ctx.client(), [ref]);
    const patch = await configFromOptions(o, 'cli:update');
    if (o.name) patch.name = o.name;
    if (words.length === 1) patch.command = words[0];
    else if (words.length > 1) [patch.command, patch.args] = [words[0], words.slice(1)];
    for (const field of o.unset ?? []) patch[field] = null;
    const res = await routes.updateProgram(ctx.client(), p.id, patch);
    ctx.print(ctx.json() ? JSON.stringify(res) : `updated ${p.name} (restart it to apply process changes: svc restart ${o.name ?? p.name})`);
  });
}

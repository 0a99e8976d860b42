import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { checkFileConfig, configFromOptions, readConfigFile, withConfigOptions, type ConfigOptions } from '../config-options.js';
import { routes } from '../../client/routes.js';
import { resolvePrograms } from '../programs.js';
import { firstStartProblem, problemText, WATCH_MS, withProblem } from '../spawn-check.js';
import { checkUnset, dottedRoots, mergeWithCurrent, unsetField } from '../dotted-fields.js';
import { PROCESS_FIELDS } from '../../../stacks/plan.js';

export function registerAddUpdate(program: Command, ctx: CliContext): void {
  withConfigOptions(
    program
      .command('add <name> [command...]')
      .description('register a program and start it (unless --no-autostart)')
      .option('--no-wait', `answer once the program is stored: do not wait for its start and watch it for ${WATCH_MS / 1000} s`)
      .addHelpText('after', '\nOne word after the name is a command line (split like a shell, no expansion);\nseveral words are the executable and its exact arguments:  svc add web -- node server.js --port 8080'),
  ).action(async (name: string, words: string[], o: ConfigOptions & { wait: boolean }) => {
    const file = o.file ? await readConfigFile(o.file) : null;
    const config = configFromOptions(o, 'cli:add', file?.value);
    config.name = name;
    if (words.length === 1) config.command = words[0];
    else if (words.length > 1) [config.command, config.args] = [words[0], words.slice(1)];
    // Nothing to run: said in the command's words (svcd would answer `command: is required`, exit 1).
    if (config.command === undefined) throw new CliError(`svc add ${name}: give the command to run (svc add ${name} -- COMMAND [ARGS...]), or a -f file with a command`, 2);
    if (file) await checkFileConfig(file, config, name);
    const res = await routes.createProgram(ctx.client(), config);
    // A command that cannot run, or a process that ends at once, is said now, not found later in Fatal or Backoff (docs/states.md).
    const watched = o.wait && config.autostart !== false && config.cron === undefined;
    const problem = watched ? await firstStartProblem(ctx.client(), res.id ?? res.ids[0] ?? '') : null;
    ctx.print(ctx.json() ? JSON.stringify(withProblem(res, problem)) : `added ${name} (${res.id})`);
    if (problem && !ctx.json()) process.stderr.write(problemText(name, problem));
    // The selectors take the word `all` as every program (svc rm all), so this one answers to its id there.
    if (name === 'all' && !ctx.json()) process.stderr.write(`warning: a program named 'all' is reached by its id (${res.id}) in svc start, stop, restart, signal and rm: the word all means every program\n`);
  });

  withConfigOptions(
    program
      .command('update <program> [command...]')
      .summary('change fields of a program (name or id)')
      .description(`change fields of a program (name or id); ${PROCESS_FIELDS.join(', ')}: at the next start (svc restart); the others at once`)
      .option('--name <new-name>', 'rename the program')
      .option('--unset <field>', 'remove an optional field (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
  ).action(async (ref: string, words: string[], o: ConfigOptions & { name?: string; unset?: string[] }) => {
    const [p] = await resolvePrograms(ctx.client(), [ref]);
    const file = o.file ? await readConfigFile(o.file) : null;
    const patch = configFromOptions(o, 'cli:update', file?.value);
    const fileSetsEnv = file !== null && 'env' in file.value;
    if (o.name) patch.name = o.name;
    if (words.length === 1) patch.command = words[0];
    else if (words.length > 1) [patch.command, patch.args] = [words[0], words.slice(1)];
    const unsets = o.unset ?? [];
    const topUnsets = unsets.filter((f) => !f.includes('.'));
    for (const field of topUnsets) patch[field] = null;
    // Object fields set or unset in part keep the rest of their current value; `-e` adds to the
    // environment (unless a -f file gave a whole `env`), `--unset env.KEY` drops one variable.
    const roots = dottedRoots([...(o.set ?? []), ...unsets.filter((f) => f.includes('.')).map((f) => `${f}=`)]);
    if (o.env && !fileSetsEnv) roots.add('env');
    const current = roots.size > 0 || file || topUnsets.length > 0 ? await routes.getProgram(ctx.client(), p.id) : null;
    // A whole field unset is checked as one of an object field is: a misspelt or absent one is a
    // usage error, not a body svcd refuses at a JSON position the user never wrote, nor a no-op.
    if (current) for (const field of topUnsets) checkUnset(current.config, field);
    if (current && roots.size > 0) {
      mergeWithCurrent(patch, current.config, roots);
      for (const field of unsets) if (field.includes('.')) unsetField(patch, current.config, field);
    }
    if (file && current) await checkFileConfig(file, patch, p.name, current.config);
    const res = await routes.updateProgram(ctx.client(), p.id, patch);
    const name = o.name ?? p.name;
    const checksum = (patch.artifact as { checksum?: string } | null | undefined)?.checksum;
    // Only the fields a spawn reads need a restart; a rename or a new restart policy does not.
    const respawn = PROCESS_FIELDS.some((field) => field in patch);
    const next = checksum ? `an OTA update to ${checksum.slice(0, 12).toLowerCase()} follows if it differs from the installed one: svc ota status ${name}` : respawn ? `restart it to apply process changes: svc restart ${name}` : null;
    const renamed = name !== p.name ? `, now named ${name}` : '';
    ctx.print(ctx.json() ? JSON.stringify(res) : `updated ${p.name}${renamed}${next ? ` (${next})` : ''}`);
  });
}

import { Argument, type Command } from 'commander';
import { cliModel } from '../completion/model.js';
import { complete } from '../completion/complete.js';
import { completionScript, SHELLS, type Shell } from '../completion/scripts.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';

/** How long a completion waits for the daemon's program list before it offers none. */
const PROGRAMS_TIMEOUT_MS = 1500;

/** `svc completion bash|zsh|fish` and the hidden `svc __complete` the scripts call. */
export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('print a shell completion script (commands, flags, and program names from the running daemon)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText('after', '\nbash: source <(svc completion bash)   zsh: source <(svc completion zsh)   fish: svc completion fish | source')
    .action((shell: Shell) => {
      process.stdout.write(completionScript(shell));
    });

  program
    .command('__complete [words...]', { hidden: true })
    .description('candidates for the last word (used by the completion scripts)')
    .helpOption(false)
    .allowUnknownOption()
    .action(async (words: string[]) => {
      const programs = async () => {
        try {
          const list = await Promise.race([
            routes.listPrograms(ctx.client()),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PROGRAMS_TIMEOUT_MS).unref()),
          ]);
          return list.map((p) => p.name).sort();
        } catch {
          return []; // no daemon (or too slow): complete nothing rather than print an error into the shell
        }
      };
      const result = await complete(cliModel(program), words.length > 0 ? words : [''], programs);
      process.stdout.write([...result.candidates, result.files ? ':files' : ':done'].join('\n') + '\n');
    });
}

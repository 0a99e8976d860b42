import type { Command } from 'commander';
import { CliError } from '../client.js';
import type { CliContext } from '../context.js';
import { resolvePrograms } from '../programs.js';

export function registerLogs(program: Command, ctx: CliContext): void {
  program
    .command('logs <program>')
    .description('print the last lines of a program\'s stdout and stderr')
    .option('-n, --tail <lines>', 'lines from the end of each file (max 5000)', '200')
    .option('-s, --source <source>', 'stdout, stderr or both', 'both')
    .action(async (ref: string, o: { tail: string; source: string }) => {
      if (!/^\d+$/.test(o.tail)) throw new CliError(`--tail: must be a whole number, got '${o.tail}'`, 2);
      const [p] = await resolvePrograms(ctx.client(), [ref]);
      const q = new URLSearchParams({ tail: o.tail, source: o.source });
      const res = await ctx.client().get<{ logs: { source: string; content: string }[] }>(`/api/v1/programs/${p.id}/logs?${q}`);
      if (ctx.json()) return ctx.print(JSON.stringify(res, null, 2));
      const both = o.source === 'both';
      for (const line of res.logs) process.stdout.write(`${both ? `${line.source === 'stderr' ? 'err' : 'out'} | ` : ''}${line.content}\n`);
    });
}

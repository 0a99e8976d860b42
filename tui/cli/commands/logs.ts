import type { Command } from 'commander';
import type { LogLine } from '../../../api/wire.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { resolvePrograms } from '../programs.js';

export function registerLogs(program: Command, ctx: CliContext): void {
  program
    .command('logs <program>')
    .description('print the last lines of a program\'s stdout and stderr (-f: then follow new lines)')
    .option('-n, --tail <lines>', 'lines from the end of each file (max 5000)', '200')
    .option('-s, --source <source>', 'stdout, stderr or both', 'both')
    .option('-f, --follow', 'keep streaming new lines until Ctrl-C')
    .action(async (ref: string, o: { tail: string; source: string; follow?: boolean }) => {
      if (!/^\d+$/.test(o.tail)) throw new CliError(`--tail: must be a whole number, got '${o.tail}'`, 2);
      const [p] = await resolvePrograms(ctx.client(), [ref]);
      // Follow: open the stream before reading the tail, so no line falls between the two.
      // The WebSocket client (ws) is loaded only when following.
      const stream = o.follow ? await (await import('../../client/log-stream.js')).openLogStream(ctx.client(), p.id) : null;
      const q = new URLSearchParams({ tail: o.tail, source: o.source });
      const res = await routes.logs(ctx.client(), p.id, q);
      const both = o.source === 'both';
      const print = (line: LogLine) => process.stdout.write(`${both ? `${line.source === 'stderr' ? 'err' : 'out'} | ` : ''}${line.content}\n`);
      if (!stream) {
        if (ctx.json()) return ctx.print(JSON.stringify(res, null, 2));
        for (const line of res.logs) print(line);
        return;
      }
      const show = (line: LogLine) => (ctx.json() ? ctx.print(JSON.stringify(line)) : print(line));
      for (const line of res.logs) show(line);
      process.once('SIGINT', () => {
        stream.close();
        process.exit(0); // Ctrl-C is the normal way to stop following
      });
      stream.start((line) => {
        if (both || line.source === o.source) show(line);
      });
      await stream.done;
    });
}

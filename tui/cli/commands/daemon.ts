import type { Command } from 'commander';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { resolvePrograms } from '../programs.js';

/** `svc flush [NAME]` (as `pm2 flush`) and `svc shutdown` (as `supervisorctl shutdown`). */
export function registerDaemon(program: Command, ctx: CliContext): void {
  program
    .command('flush [program]')
    .description('empty the log files of a program, or of every program (rotated copies are kept)')
    .action(async (ref: string | undefined) => {
      const targets = ref === undefined ? await routes.listPrograms(ctx.client()) : await resolvePrograms(ctx.client(), [ref]);
      const results = [];
      for (const p of targets) results.push({ name: p.name, ...(await routes.flushLogs(ctx.client(), p.id)) });
      if (ctx.json()) return ctx.print(JSON.stringify(results, null, 2));
      if (results.length === 0) return ctx.print('no programs');
      for (const r of results) ctx.print(`flushed ${r.name}${r.flushed.length === 0 ? ' (no log file written yet)' : ''}`);
    });

  program
    .command('shutdown')
    .description('stop every program gracefully, then svcd exits')
    .action(async () => {
      const res = await routes.shutdown(ctx.client());
      ctx.print(ctx.json() ? JSON.stringify(res) : `svcd at ${ctx.client().url}: ${res.message}`);
    });
}

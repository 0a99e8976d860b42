import type { Command } from 'commander';
import type { ActionOutcome, BatchActionType, BatchAction } from '../../../api/wire.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { table } from '../format.js';
import { resolvePrograms } from '../programs.js';

interface Selection {
  all?: boolean;
  group?: string;
}

/** start, stop, restart, signal, rm: one program, several, a group (--group) or all (--all). */
export function registerActions(program: Command, ctx: CliContext): void {
  const selectable = (cmd: Command) => cmd.option('-a, --all', 'every program').option('-g, --group <name>', 'every program in this group (group_name)');

  const run = async (refs: string[], sel: Selection, type: BatchActionType, payload: BatchAction['payload']) => {
    if (refs.length === 0 && !sel.all && !sel.group) throw new CliError('name a program (name or id), or use --all or --group NAME', 2);
    const ids = refs.length > 0 ? (await resolvePrograms(ctx.client(), refs)).map((p) => p.id) : undefined;
    const res = await routes.batch(ctx.client(), { target_ids: ids, group_name: sel.group, select_all: sel.all ?? false, action: { type, payload } });
    report(ctx, res.results);
  };

  selectable(program.command('start [programs...]').description('start programs (clears Fatal)')).action((refs: string[], o: Selection) => run(refs, o, 'Start', null));
  selectable(program.command('stop [programs...]').description('stop programs: SIGTERM, then SIGKILL after stopsecs').option('-f, --force', 'SIGKILL at once')).action(
    (refs: string[], o: Selection & { force?: boolean }) => run(refs, o, 'Stop', { force: o.force ?? false }),
  );
  selectable(program.command('restart [programs...]').description('stop then start programs')).action((refs: string[], o: Selection) => run(refs, o, 'Restart', null));
  selectable(program.command('rm [programs...]').alias('remove').description('stop and remove programs')).action((refs: string[], o: Selection) => run(refs, o, 'Remove', null));
  selectable(program.command('signal <signal> [programs...]').description('send hup, int, term, kill, quit, usr1 or usr2 to the process group')).action(
    (signal: string, refs: string[], o: Selection) => run(refs, o, 'Signal', { signal }),
  );
}

function report(ctx: CliContext, results: ActionOutcome[]): void {
  if (ctx.json()) ctx.print(JSON.stringify(results, null, 2));
  else if (results.length === 0) ctx.print('no programs matched');
  else ctx.print(table(['NAME', 'RESULT', 'STATUS', 'PID'], results.map((r) => [r.name || r.id, r.ok && !r.error ? 'ok' : (r.error ?? 'failed'), r.status, r.pid])));
  // A stop on a full data disk took effect but is not on disk yet (docs/operations.md).
  if (!ctx.json()) for (const r of results) if (r.warning) ctx.print(`warning: ${r.name || r.id}: ${r.warning}`);
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

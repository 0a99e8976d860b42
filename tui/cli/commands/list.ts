import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { bytes, duration } from '../../client/format.js';
import { table } from '../format.js';
import { routes } from '../../client/routes.js';
import { stackBanner, type StackStatusBody } from '../../../stacks/stack-problems.js';
import { compareNames } from '../../client/compare-names.js';
import { shownStatus } from '../../client/shown-status.js';
import { listFilter, type ListFlags } from '../list-filter.js';

export function registerList(program: Command, ctx: CliContext): void {
  program
    .command('list [patterns...]')
    .alias('ls')
    .description('list programs with status, pid, cpu and memory; patterns (web*, GROUP:*, an id) and --status/--group narrow it')
    .option('-s, --status <statuses>', 'only programs in these statuses, comma-separated (Fatal,Backoff; any case)')
    .option('-g, --group <name>', 'only programs of this group (group_name)')
    .action((patterns: string[], flags: ListFlags) => printList(ctx, patterns, flags));
}

/** `svc list` (and `svc status` without a name). */
export async function printList(ctx: CliContext, patterns: string[] = [], flags: ListFlags = {}): Promise<void> {
  const wanted = listFilter(patterns, flags); // bad flags are refused before svcd is asked
  const [all, stacks] = await Promise.all([routes.listPrograms(ctx.client()), ctx.client().get<StackStatusBody>('/api/v1/stack/status')]);
  const programs = all.filter(wanted);
  const filtered = programs.length < all.length;
  if (ctx.json()) return ctx.print(JSON.stringify(programs, null, 2));
  const banner = stackBanner(stacks);
  if (banner) process.stderr.write(`${banner}\n`);
  if (programs.length === 0) return ctx.print(filtered ? `no programs match (${all.length} in all)` : 'no programs (add one with: svc add NAME COMMAND...)');
  const now = Date.now();
  const rows = [...programs]
    .sort((a, b) => compareNames(a.name, b.name))
    .map((p) => [p.name, statusText(p), p.pid, ...usageCells(p), p.started_at ? duration((now - p.started_at) / 1000) : '-', p.restarts, p.id]);
  ctx.print(table(['NAME', 'STATUS', 'PID', 'CPU', 'MEM', 'UPTIME', 'RESTARTS', 'ID'], rows));
}

/** CPU and memory of a program with a process; `-` for one without (Stopped, Fatal, Backoff...). */
export function usageCells(p: { pid: number | null; cpu_usage: number; mem_usage: number }): [string, string] {
  return p.pid === null ? ['-', '-'] : [`${p.cpu_usage.toFixed(1)}%`, bytes(p.mem_usage)];
}

/** A cron program with several runs in flight shows how many: `Running (2)`; a removed one still stopping reads `Removing`. */
function statusText(p: { status: string; cron_running?: number; removed?: true }): string {
  return p.status === 'Running' && (p.cron_running ?? 0) > 1 ? `Running (${p.cron_running})` : shownStatus(p);
}

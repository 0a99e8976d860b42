import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { printInfo } from './info.js';
import { printList } from './list.js';

/** `svc status [NAME]`: the habit of supervisorctl and systemctl; the table, or one program's detail. */
export function registerStatus(program: Command, ctx: CliContext): void {
  program
    .command('status [program]')
    .description('the program table (as svc list), or with a name the detail of one program (as svc info)')
    .action((ref: string | undefined) => (ref === undefined ? printList(ctx) : printInfo(ctx, ref)));
}

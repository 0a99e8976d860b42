import type { Command } from 'commander';
import type { GitSourceStatus } from '../../../stacks/git/status.js';
import type { ProgramDiff } from '../../../stacks/git/diff.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import type { StackStatusBody } from '../../../stacks/stack-problems.js';
import { stackStatusText } from '../stack-status-text.js';

interface DiffBody {
  sources: { source: string; commit: string | null; applied: string | null; in_sync: boolean; changes: ProgramDiff[]; error?: string | null }[];
}

/** `svc stack status`, `svc sync [NAME]` and `svc diff [SOURCE]` (docs/gitops.md, docs/stacks.md). */
export function registerGitops(program: Command, ctx: CliContext): void {
  const stack = program.command('stack').description('stack sources: the watched directory and git sources');
  stack
    .command('status')
    .description('each watched stack file and git source: last apply, applied commit, last fetch, last error (path:line:col)')
    .action(async () => {
      const body = await ctx.client().get<StackStatusBody>('/api/v1/stack/status');
      ctx.print(ctx.json() ? JSON.stringify(body, null, 2) : stackStatusText(body));
    });

  program
    .command('sync [source]')
    .description('fetch and apply git sources now (all, or one); --to pins a commit, --unpin follows the branch again')
    .option('--to <commit>', 'pin the source to this commit until --unpin (emergency rollback)')
    .option('--unpin', 'follow the configured branch or tag again')
    .action(async (given: string | undefined, o: { to?: string; unpin?: boolean }) => {
      // Usage errors are said here (exit 2) in the flags' words; svcd's 400 named its query parameters.
      if ((o.to !== undefined || o.unpin) && !given) throw new CliError(`${o.to !== undefined ? '--to' : '--unpin'}: name the source to pin or unpin: svc sync NAME ${o.to !== undefined ? '--to COMMIT' : '--unpin'}`, 2);
      if (o.to !== undefined && o.unpin) throw new CliError('give --to or --unpin, not both', 2);
      if (o.to !== undefined && !/^[0-9a-f]{4,64}$/i.test(o.to)) throw new CliError(`--to: '${o.to}' is not a commit id (4 to 64 hex digits, as git log shows it)`, 2);
      // `git:fleet`, as svc sync and svc list print a source, names the source fleet (as in svc diff).
      const source = given?.replace(/^git:/, '');
      const query = new URLSearchParams({ ...(source ? { source } : {}), ...(o.to ? { to: o.to } : {}), ...(o.unpin ? { unpin: 'true' } : {}) });
      const res = await ctx.client().post<{ status: string; sources: GitSourceStatus[] }>(`/api/v1/stack/sync${query.size > 0 ? `?${query.toString()}` : ''}`);
      if (ctx.json()) ctx.print(JSON.stringify(res, null, 2));
      else for (const s of res.sources) ctx.print(syncLine(s));
      const failed = res.sources.filter((s) => s.last_error);
      if (failed.length > 0) throw new CliError(`${failed.length} source${failed.length === 1 ? '' : 's'} not synced`, 1);
    });

  program
    .command('diff [source]')
    .description('live programs against the repository of git sources (all, or one)')
    .action(async (source: string | undefined) => {
      const res = await ctx.client().get<DiffBody>(`/api/v1/stack/diff${source ? `?source=${encodeURIComponent(source.replace(/^git:/, ''))}` : ''}`);
      if (ctx.json()) return ctx.print(JSON.stringify(res, null, 2));
      const out: string[] = [];
      for (const s of res.sources) {
        if (s.error) {
          out.push(`${s.source}${s.commit ? ` at ${s.commit.slice(0, 12)}` : ''}: cannot compare: ${s.error}`);
          continue;
        }
        out.push(`${s.source} at ${(s.commit ?? '').slice(0, 12)}${s.applied && s.applied !== s.commit ? ` (applied ${s.applied.slice(0, 12)})` : ''}: ${s.in_sync ? 'in sync' : `${s.changes.length} program${s.changes.length === 1 ? '' : 's'} differ`}`);
        for (const c of s.changes) {
          out.push(`  ${c.action === 'created' ? '+' : c.action === 'pruned' ? '-' : '~'} ${c.name}${c.action === 'created' ? ' (only in the repository)' : c.action === 'pruned' ? ' (only live)' : ''}`);
          for (const f of c.fields) out.push(`      ${f.field}: live ${JSON.stringify(f.live) ?? '(unset)'}, repository ${JSON.stringify(f.repo) ?? '(unset)'}`);
        }
      }
      ctx.print(out.join('\n'));
      const failed = res.sources.filter((s) => s.error);
      if (failed.length > 0) throw new CliError(`${failed.length} source${failed.length === 1 ? '' : 's'} not compared`, 1);
    });
}

function syncLine(s: GitSourceStatus): string {
  const applied = s.applied ? `${s.applied.commit.slice(0, 12)} "${s.applied.subject}"` : 'nothing applied';
  const pin = s.pinned ? ` (pinned to ${s.pinned.slice(0, 12)})` : '';
  const changed = s.lines.filter((l) => !l.startsWith('unchanged '));
  const base = `git:${s.name}: ${applied}${pin}${changed.length > 0 && !s.last_error ? `: ${changed.join(', ')}` : ''}`;
  return s.last_error ? `${base}\n  error: ${s.last_error.message.split('\n').join('\n    ')}` : base;
}

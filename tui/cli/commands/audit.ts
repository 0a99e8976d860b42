import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { timestamp } from '../../client/format.js';
import { table } from '../format.js';
import { TIME_ARG_HELP, timeArg } from '../time-arg.js';

interface AuditRecord {
  seq: number;
  ts: number;
  actor: { kind: string; id?: string; name?: string; role?: string };
  method: string;
  path: string;
  query?: string;
  status: number;
  detail?: Record<string, unknown>;
}
type Verdict = { ok: true; records: number; notes: string[] } | { ok: false; records: number; problem: string };

const FILTERS = ['actor', 'role', 'method', 'path', 'status', 'from', 'to', 'limit', 'offset', 'order'] as const;

/** `svc audit`: the security plugin's audit log; `--verify` checks its chain of digests. */
export function registerAudit(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('audit')
    .description('state-changing requests recorded by the security plugin (admin); --verify checks the log was not edited or truncated')
    .option('--verify', 'verify the chain of digests and the head; exit 1 when the log was tampered with')
    .option('--root <dir>', 'with --verify: check <dir>/data/audit.log on disk, without a daemon');
  for (const f of FILTERS) cmd.addOption(f === 'order' ? new Option('--order <value>', filterHelp(f)).choices(['asc', 'desc']) : new Option(`--${f} <value>`, filterHelp(f)));
  cmd.action(async (o: Record<string, string | boolean | undefined>) => {
    if (o.verify) return verify(ctx, typeof o.root === 'string' ? o.root : undefined);
    if (o.root) throw new CliError('--root: only with --verify', 2);
    const q = new URLSearchParams();
    for (const f of FILTERS) {
      const value = o[f];
      if (typeof value === 'string') q.set(f, f === 'from' || f === 'to' ? timeArg(value, `--${f}`)! : value);
    }
    const records = await ctx.client().get<AuditRecord[]>(`/api/v1/audit${q.size > 0 ? `?${q.toString()}` : ''}`);
    if (ctx.json()) return ctx.print(JSON.stringify(records, null, 2));
    if (records.length === 0) return ctx.print('no audit records match');
    ctx.print(table(['SEQ', 'TIME', 'WHO', 'ROLE', 'WHAT', 'STATUS', 'DETAIL'], records.map((r) => [r.seq, timestamp(r.ts), who(r.actor), r.actor.role ?? '-', `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`, r.status, r.detail ? JSON.stringify(r.detail) : ''])));
  });
}

async function verify(ctx: CliContext, root: string | undefined): Promise<void> {
  let verdict: Verdict & { file?: string };
  if (root) {
    const { verifyAuditFiles } = await import('../../../plugins/security/audit/audit-log.js');
    const dir = join(resolve(root), 'data');
    if (!existsSync(join(dir, 'audit.log')) && !existsSync(join(dir, 'audit.head'))) {
      throw new CliError(`no audit log in ${dir} (neither audit.log nor audit.head): is --root the installation root?`);
    }
    verdict = { ...(await verifyAuditFiles(dir)), file: join(dir, 'audit.log') };
  } else {
    verdict = await ctx.client().get<Verdict & { file: string }>('/api/v1/audit/verify');
  }
  if (ctx.json()) ctx.print(JSON.stringify(verdict, null, 2));
  if (!verdict.ok) throw new CliError(`audit log ${verdict.file ?? ''} FAILED verification: ${verdict.problem}`);
  if (!ctx.json()) ctx.print([`audit log ${verdict.file ?? ''} verified: ${verdict.records} records, chain and head intact`, ...verdict.notes.map((n) => `note: ${n}`)].join('\n'));
}

function who(a: AuditRecord['actor']): string {
  return a.kind === 'token' ? `${a.name ?? '?'} (${a.id ?? '?'})` : a.kind;
}

function filterHelp(f: (typeof FILTERS)[number]): string {
  const help: Record<(typeof FILTERS)[number], string> = {
    actor: 'token id, or secret, anonymous, svcd',
    role: 'viewer, operator or admin',
    method: 'POST, PUT, DELETE',
    path: 'records whose path starts with this',
    status: 'HTTP status answered',
    from: `at or after this time: ${TIME_ARG_HELP}`,
    to: 'at or before this time (as --from)',
    limit: 'at most this many (default 100, max 1000)',
    offset: 'skip this many',
    order: 'asc (default) or desc',
  };
  return help[f];
}

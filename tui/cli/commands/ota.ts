import type { Command } from 'commander';
import type { OtaView } from '../../../state/ota.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { timestamp } from '../../client/format.js';
import { table } from '../format.js';
import { otaLines, pendingTarget } from '../../client/ota-format.js';
import { resolvePrograms } from '../programs.js';
import { compareNames } from '../../client/compare-names.js';

interface OtaStatus {
  id: string;
  name: string;
  artifact: { source: string; checksum: string; destination: string; restart_policy?: string } | null;
  ota: OtaView | null;
}

interface RollbackOutcome {
  id: string;
  name: string;
  ok: boolean;
  ota: OtaView | null;
  error?: string;
}

const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 12) : '-');

/** `svc ota status [NAME]` and `svc ota rollback NAME` (docs/ota.md). */
export function registerOta(program: Command, ctx: CliContext): void {
  const ota = program.command('ota').description('over-the-air binary updates (artifact): status and rollback');

  ota
    .command('status [program]')
    .description('OTA phase, installed and target checksums and the last result (all programs with an artifact, or one)')
    .action(async (ref: string | undefined) => {
      if (ref) {
        const [p] = await resolvePrograms(ctx.client(), [ref]);
        const s = await ctx.client().get<OtaStatus>(`/api/v1/programs/${p.id}/ota`);
        if (ctx.json()) return ctx.print(JSON.stringify(s, null, 2));
        if (!s.artifact) throw new CliError(`program '${s.name}' has no artifact`, 1);
        const lines = [`name:        ${s.name}`, `destination: ${s.artifact.destination}`, `source:      ${s.artifact.source}`, `desired:     ${s.artifact.checksum}`];
        ctx.print([...lines, ...(s.ota ? otaLines(s.ota) : ['ota:         (not inspected yet)'])].join('\n'));
        return;
      }
      const all = await ctx.client().get<OtaStatus[]>('/api/v1/ota');
      if (ctx.json()) return ctx.print(JSON.stringify(all, null, 2));
      if (all.length === 0) return ctx.print('no program has an artifact');
      const rows = all
        .sort((a, b) => compareNames(a.name, b.name))
        .map((s) => [
          s.name,
          s.ota?.phase ?? '-',
          short(s.ota?.installed),
          short(pendingTarget(s.artifact?.checksum, s.ota)),
          s.ota?.last ? `${s.ota.last.result} ${timestamp(s.ota.last.at)}` : '-',
          s.ota?.last?.reason ?? '',
        ]);
      ctx.print(table(['NAME', 'PHASE', 'INSTALLED', 'TARGET', 'LAST', 'REASON'], rows));
    });

  ota
    .command('rollback <program>')
    .description('restore the previous binary (<destination>.svc-backup) and restart per restart_policy')
    .action(async (ref: string) => {
      const [p] = await resolvePrograms(ctx.client(), [ref]);
      const res = await ctx.client().post<RollbackOutcome>(`/api/v1/programs/${p.id}/ota/rollback`);
      if (ctx.json()) return ctx.print(JSON.stringify(res, null, 2));
      if (!res.ok) throw new CliError(res.error ?? `program '${res.name}': rollback not done`, 1);
      ctx.print(`rolled back ${res.name}: ${res.ota?.last?.reason ?? ''}`);
    });
}

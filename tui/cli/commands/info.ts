import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { bytes, duration, timestamp } from '../format.js';
import { resolvePrograms } from '../programs.js';
import { otaLines } from '../ota-format.js';
import type { OtaView } from '../../../state/ota.js';

interface Detail {
  id: string;
  name: string;
  config: Record<string, unknown>;
  state: {
    status: string;
    desired: string;
    pid: number | null;
    uptime_secs: number | null;
    retries: number;
    restarts: number;
    next_retry_at: number | null;
    last_exit: { msg: string; at: number; exit_code: number | null; signal: number | null } | null;
    detail: string | null;
    health: { healthy: boolean | null; failures: number; last: { at: number; ok: boolean; latency_ms: number; message: string } | null } | null;
    cpu_usage: number;
    mem_usage: number;
    cron?: {
      next_fire_at: number | null;
      running: number;
      queued: number;
      skipped: number;
      dropped: number;
      last_run: { msg: string; started_at: number | null; slot: number } | null;
    };
    ota?: OtaView;
    isolation?: { status: string; oom_kills: number };
  };
}

export function registerInfo(program: Command, ctx: CliContext): void {
  program
    .command('info <program>')
    .description('show the configuration and state of one program (name or id)')
    .action(async (ref: string) => {
      const [p] = await resolvePrograms(ctx.client(), [ref]);
      const d = await ctx.client().get<Detail>(`/api/v1/programs/${p.id}`);
      if (ctx.json()) return ctx.print(JSON.stringify(d, null, 2));
      const s = d.state;
      const lines = [
        `name:        ${d.name}`,
        `id:          ${d.id}`,
        `status:      ${s.status}${s.detail ? ` (${s.detail})` : ''}   desired: ${s.desired}`,
        `pid:         ${s.pid ?? '-'}   uptime: ${duration(s.uptime_secs)}   cpu: ${s.cpu_usage.toFixed(1)}%   mem: ${bytes(s.mem_usage)}`,
        `restarts:    ${s.restarts} (retries since stable: ${s.retries})${s.next_retry_at ? `   next retry: ${timestamp(s.next_retry_at)}` : ''}`,
        `last exit:   ${s.last_exit ? `${s.last_exit.msg} at ${timestamp(s.last_exit.at)}` : '-'}`,
        `health:      ${describeHealth(s.health)}`,
        ...(s.cron ? cronLines(d.config, s.cron) : []),
        ...(s.ota ? otaLines(s.ota) : []),
        ...(s.isolation ? [`limits:      ${s.isolation.status}${s.isolation.oom_kills > 0 ? `   OOM kills: ${s.isolation.oom_kills}` : ''}`] : []),
        'config:',
        ...Object.entries(d.config).map(([k, v]) => `  ${k} = ${JSON.stringify(v)}`),
      ];
      ctx.print(lines.join('\n'));
    });
}

function describeHealth(h: Detail['state']['health']): string {
  if (!h) return '-';
  const verdict = h.healthy === null ? 'pending' : h.healthy ? 'healthy' : `unhealthy (${h.failures} failures in a row)`;
  const last = h.last ? `; last probe ${h.last.ok ? 'passed' : 'failed'} at ${timestamp(h.last.at)} in ${h.last.latency_ms} ms: ${h.last.message}` : '';
  return `${verdict}${last}`;
}

/** The schedule of a cron program (docs/cron.md). */
function cronLines(config: Record<string, unknown>, c: NonNullable<Detail['state']['cron']>): string[] {
  const zone = typeof config.cron_tz === 'string' ? config.cron_tz : 'local time';
  return [
    `schedule:    ${String(config.cron)} (${zone})   next: ${c.next_fire_at ? timestamp(c.next_fire_at) : '- (paused)'}`,
    `runs:        ${c.running} running, ${c.queued} queued, ${c.skipped} skipped, ${c.dropped} dropped (queue full)`,
    `last run:    ${c.last_run ? c.last_run.msg : '-'}`,
  ];
}

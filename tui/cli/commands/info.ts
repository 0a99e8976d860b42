import type { Command } from 'commander';
import type { ProgramConfig, ProgramDetail } from '../../../api/wire.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { duration, timestamp } from '../../client/format.js';
import { resolvePrograms } from '../programs.js';
import { otaLines } from '../../client/ota-format.js';
import { usageCells } from './list.js';
import { noNextFiring } from '../../../state/cron-next.js';

export function registerInfo(program: Command, ctx: CliContext): void {
  program
    .command('info <program>')
    .aliases(['describe', 'show'])
    .description('show the configuration and state of one program (name or id)')
    .action((ref: string) => printInfo(ctx, ref));
}

/** `svc info` (and `svc status NAME`). */
export async function printInfo(ctx: CliContext, ref: string): Promise<void> {
      const [p] = await resolvePrograms(ctx.client(), [ref]);
      const d = await routes.getProgram(ctx.client(), p.id);
      if (ctx.json()) return ctx.print(JSON.stringify(d, null, 2));
      const s = d.state;
      const [cpu, mem] = usageCells({ pid: s.pid, cpu_usage: s.cpu_usage, mem_usage: s.mem_usage });
      const lines = [
        `name:        ${d.name}`,
        `id:          ${d.id}`,
        `status:      ${s.status}${s.detail ? ` (${s.detail})` : ''}   desired: ${s.desired}`,
        `pid:         ${s.pid ?? '-'}   uptime: ${duration(s.uptime_secs)}   cpu: ${cpu}   mem: ${mem}`,
        `restarts:    ${s.restarts} (retries since stable: ${s.retries})${s.next_retry_at ? `   next retry: ${timestamp(s.next_retry_at)}` : ''}`,
        `last exit:   ${s.last_exit ? `${s.last_exit.msg} at ${timestamp(s.last_exit.at)}` : '-'}`,
        `health:      ${describeHealth(s.health)}`,
        ...reloadLines(s),
        ...(s.cron ? cronLines(d.config, s.cron, s.status) : []),
        ...(s.ota ? otaLines(s.ota) : []),
        ...(s.isolation ? [`limits:      ${s.isolation.status}${s.isolation.oom_kills > 0 ? `   OOM kills: ${s.isolation.oom_kills}` : ''}`] : []),
        'config:',
        ...Object.entries(d.config).map(([k, v]) => `  ${k} = ${JSON.stringify(v)}`),
      ];
      ctx.print(lines.join('\n'));
}

/** A reload under way (two processes run) and how the last one ended (docs/reload.md). */
function reloadLines(s: ProgramDetail['state']): string[] {
  const lines: string[] = [];
  const r = s.reload;
  if (r) {
    const what = { successor: 'new process, waiting for Healthy until', retiring: 'old process, stopping (SIGKILL at', aborting: 'failed new process, stopping (SIGKILL at' }[r.phase];
    lines.push(`reloading:   pid ${r.pid} (${what} ${timestamp(r.deadline)}${r.phase === 'successor' ? '' : ')'})`);
  }
  if (s.last_reload) lines.push(`last reload: ${s.last_reload.result}: ${s.last_reload.msg} at ${timestamp(s.last_reload.at)}`);
  return lines;
}

export function describeHealth(h: ProgramDetail['state']['health']): string {
  if (!h) return '-';
  const verdict = h.healthy === null ? 'pending' : h.healthy ? 'healthy' : `unhealthy (${unhealthyCount(h)})`;
  const last = h.last ? `; last probe ${h.last.ok ? 'passed' : 'failed'} at ${timestamp(h.last.at)} in ${h.last.latency_ms} ms: ${h.last.message}` : '';
  return `${verdict}${last}`;
}

/**
 * Why an Unhealthy verdict stands: the failures in a row, or, when the count started over (the
 * check changed) and no probe has failed since, that it holds until the check passes enough.
 */
function unhealthyCount(h: NonNullable<ProgramDetail['state']['health']>): string {
  if (h.failures > 0) return `${h.failures} ${h.failures === 1 ? 'failure' : 'failures'} in a row`;
  const passes = h.successes;
  return `until the check passes; ${passes} ${passes === 1 ? 'pass' : 'passes'} so far`;
}

/** The schedule of a cron program (docs/cron.md). */
export function cronLines(config: ProgramConfig, c: NonNullable<ProgramDetail['state']['cron']>, status: string): string[] {
  const zone = config.cron_tz ?? 'local time';
  return [
    `schedule:    ${String(config.cron)} (${zone})   next: ${c.next_fire_at ? timestamp(c.next_fire_at) : `- (${noNextFiring(status)})`}`,
    `runs:        ${c.running} running, ${c.queued} queued, ${c.skipped} skipped, ${c.dropped} dropped (queue full)`,
    `last run:    ${c.last_run ? c.last_run.msg : '-'}`,
  ];
}

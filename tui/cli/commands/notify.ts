import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseNotifyToml } from '../../../plugins/notify/config/load.js';
import { NotifyConfigError } from '../../../plugins/notify/config/validate.js';
import { RawBody } from '../../client/http.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { table } from '../format.js';

interface ChannelView {
  name: string;
  kind: string;
  url: string;
  enabled: boolean;
  events: string[];
  programs: string[];
  min_severity: string;
  status: Record<string, number | string | null>;
}

interface NotifyView {
  file: string;
  host: string;
  loaded_at: number;
  error: { message: string; at: number } | null;
  queue: { depth: number; in_flight: number; capacity: number };
  channels: ChannelView[];
}

interface TestResult {
  channel: string;
  ok: boolean;
  status: number | null;
  attempts: number;
  error: string | null;
  duration_ms: number;
}

const PATH = '/api/v1/system/notify';

/** Reads and checks a notify.toml locally, so a mistake is reported as file:line before anything is sent. */
function readChecked(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${file}: cannot read: ${(err as Error).message}`, 2);
  }
  try {
    parseNotifyToml(file, text);
  } catch (err) {
    if (err instanceof NotifyConfigError) throw new CliError(err.message, 2);
    throw err;
  }
  return text;
}

/** `svc notify status|channels|test|check|apply`: the notify plugin's webhook channels (docs/notify.md). */
export function registerNotify(program: Command, ctx: CliContext): void {
  const cmd = program.command('notify').description('webhook channels of the notify plugin (docs/notify.md)');

  cmd
    .command('status')
    .description('the configuration in force, the last load error, the delivery queue and per-channel counters')
    .action(async () => {
      const v = await ctx.client().get<NotifyView>(PATH);
      if (ctx.json()) return ctx.print(JSON.stringify(v, null, 2));
      const lines = [`file: ${v.file}`, `loaded: ${new Date(v.loaded_at).toISOString()}`];
      lines.push(v.error ? `error: ${v.error.message} (the last good channels stay in force)` : 'error: none');
      lines.push(`queue: ${v.queue.depth}/${v.queue.capacity} waiting, ${v.queue.in_flight} in flight`);
      const rows = v.channels.map((c) => {
        const s = c.status;
        return [c.name, c.enabled ? 'on' : 'off', s.matched ?? 0, s.notices ?? 0, s.delivered ?? 0, s.failed ?? 0, s.dropped ?? 0, s.retries ?? 0, s.grouped ?? 0, s.inhibited ?? 0, s.rate_limited ?? 0, s.last_error ?? (s.last_status === null ? '-' : `HTTP ${s.last_status}`)];
      });
      lines.push(rows.length > 0 ? table(['CHANNEL', 'ON', 'EVENTS', 'MESSAGES', 'DELIVERED', 'FAILED', 'DROPPED', 'RETRIES', 'GROUPED', 'INHIBITED', 'RATE-LIMITED', 'LAST'], rows) : 'no channels');
      ctx.print(lines.join('\n'));
    });

  cmd
    .command('channels')
    .description('the channels in force (webhook URLs redacted unless you are an admin)')
    .action(async () => {
      const v = await ctx.client().get<NotifyView>(PATH);
      if (ctx.json()) return ctx.print(JSON.stringify(v.channels, null, 2));
      const all = (list: string[]) => (list.length > 0 ? list.join(',') : '*');
      const rows = v.channels.map((c) => [c.name, c.kind, c.enabled ? 'yes' : 'no', c.min_severity, all(c.events), all(c.programs), c.url]);
      ctx.print(rows.length > 0 ? table(['NAME', 'KIND', 'ENABLED', 'MIN-SEVERITY', 'EVENTS', 'PROGRAMS', 'URL'], rows) : `no channels in ${v.file}`);
    });

  cmd
    .command('test <channel>')
    .description('send a test message to one channel now (one attempt, outside the rate limit) and show the result')
    .action(async (channel: string) => {
      const r = await ctx.client().post<TestResult>(`${PATH}/test`, { channel });
      if (ctx.json()) ctx.print(JSON.stringify(r, null, 2));
      else ctx.print(r.ok ? `delivered to ${channel}: HTTP ${r.status} in ${r.duration_ms} ms` : `not delivered to ${channel}: ${r.error ?? 'unknown error'} (${r.duration_ms} ms)`);
      if (!r.ok) process.exitCode = 1;
    });

  cmd
    .command('check <file>')
    .description('check a notify.toml offline; problems are reported as file:line: key: why')
    .action((file: string) => {
      readChecked(file);
      ctx.print(`${file}: ok`);
    });

  cmd
    .command('apply <file>')
    .description('replace the daemon\'s channels with a notify.toml (checked, written atomically to conf/notify.toml, reloaded)')
    .action(async (file: string) => {
      const v = await ctx.client().put<NotifyView>(PATH, new RawBody(readChecked(file), 'application/toml'));
      if (ctx.json()) return ctx.print(JSON.stringify(v, null, 2));
      ctx.print(`applied ${v.channels.length} ${v.channels.length === 1 ? 'channel' : 'channels'} to ${v.file}`);
    });
}

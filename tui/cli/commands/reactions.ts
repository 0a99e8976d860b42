import type { Command } from 'commander';
import type { ReactionsStatus, ReactionView, RunRecord } from '../../../state/reactions-view.js';
import { CliError } from '../errors.js';
import type { CliContext } from '../context.js';
import { timestamp } from '../../client/format.js';

/** How long `svc reactions test` waits for svcd's answer: the longest timeout_secs (3600, docs/reactions.md) and a minute. */
const TEST_RUN_WAIT_MS = (3600 + 60) * 1000;

function runLine(r: RunRecord | null): string {
  if (!r) return 'never run';
  const what = `${r.test ? 'test run' : r.event}${r.program_name ? ` of ${r.program_name}` : ''}`;
  return `${r.outcome} at ${timestamp(r.started_at)} (${what}): ${r.msg}`;
}

function reactionBlock(r: ReactionView): string[] {
  const totals = Object.entries(r.runs).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
  const skipped = Object.entries(r.skipped).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
  return [
    `${r.name}${r.enabled ? '' : ' (disabled)'}`,
    `  on:       ${r.events.join(', ')}${r.programs ? ` of ${r.programs.join(', ')}` : ''}`,
    `  runs:     ${r.shell ? `sh -c ${JSON.stringify(r.command[0] ?? '')}` : r.command.map((w) => (/\s/.test(w) ? JSON.stringify(w) : w)).join(' ')}`,
    `  limits:   timeout ${r.timeout_secs} s, max_concurrent ${r.max_concurrent}, cooldown ${r.cooldown_secs} s`,
    `  last run: ${runLine(r.last_run)}${r.running > 0 ? ` (${r.running} running now)` : ''}`,
    `  totals:   ${totals.length ? totals.join(', ') : 'no runs'}${skipped.length ? `; skipped ${skipped.join(', ')}` : ''}`,
    `  log:      ${r.log_file}`,
  ];
}

/** The text of `svc reactions list`: the load error first (it explains a stale list), then each reaction. */
export function formatReactions(s: ReactionsStatus): string {
  const lines: string[] = [];
  if (s.load_error) {
    lines.push(`LOAD ERROR at ${timestamp(s.load_error.at)}: the last edit was not applied; the reactions below stay in force`, ...s.load_error.errors.map((e) => `  ${e}`), '');
  }
  if (s.reactions.length === 0) lines.push(`no reactions (add [[reaction]] tables to ${s.file}; see docs/reactions.md)`);
  else lines.push(...s.reactions.flatMap((r, i) => [...(i > 0 ? [''] : []), ...reactionBlock(r)]));
  return lines.join('\n');
}

export function registerReactions(program: Command, ctx: CliContext): void {
  const reactions = program.command('reactions').description('event reactions: local scripts run on events such as process_fatal (conf/reactions.toml)');
  reactions
    .command('list', { isDefault: true })
    .description('the reactions in force, each with its last run, and the error of the last edit if it failed')
    .action(async () => {
      const s = await ctx.client().get<ReactionsStatus>('/api/v1/system/reactions');
      ctx.print(ctx.json() ? JSON.stringify(s, null, 2) : formatReactions(s));
    });
  reactions
    .command('test <name>')
    .description('run a reaction now with a synthetic event and wait for it; exit 1 unless it exited 0')
    .option('--event <type>', 'event type of the synthetic event (default: the first the reaction names)')
    .option('--program <name|id>', 'program the synthetic event is about')
    .action(async (name: string, o: { event?: string; program?: string }) => {
      const body = { ...(o.event ? { event: o.event } : {}), ...(o.program ? { program: o.program } : {}) };
      // svcd answers when the run ends, up to its timeout_secs (at most 3600 s): more than the
      // client's 120 s. A hung svcd is still told apart by the client's liveness checks.
      const r = await ctx.client().post<RunRecord>(`/api/v1/system/reactions/${encodeURIComponent(name)}/test`, body, { timeoutMs: TEST_RUN_WAIT_MS });
      ctx.print(ctx.json() ? JSON.stringify(r, null, 2) : `reaction '${name}' ${r.msg}`);
      if (r.outcome !== 'ok') throw new CliError(`reaction '${name}' did not succeed (${r.outcome})`, 1);
    });
}

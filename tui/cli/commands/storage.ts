import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { timestamp } from '../../client/format.js';
import { CliError } from '../errors.js';

/** `GET /api/v1/system/storage` as served (api/openapi/storage-schema.ts). */
interface Health {
  writable: boolean;
  problem: string | null;
  since: number | null;
  recovered_at_open: string | null;
}
interface Storage {
  state: Health & { pending_intents: number; quarantined: { id: string; name: string | null; reason: string; at: number }[] };
  events: Health & { queued: number; malformed_records: number };
}

function healthLine(h: Health, extra: string[]): string {
  const state = h.writable ? 'writable' : `NOT WRITABLE since ${h.since ? timestamp(h.since) : '?'}: ${h.problem ?? 'unknown reason'}`;
  return [state, ...extra].join('; ');
}

/** The text of `svc storage`: one line per store, then what was found at start and what is quarantined. */
export function formatStorage(s: Storage): string {
  const lines = [
    `state store:    ${healthLine(s.state, s.state.pending_intents > 0 ? [`${s.state.pending_intents} stop request(s) held in memory until it can write`] : [])}`,
    `event history:  ${healthLine(s.events, [
      ...(s.events.queued > 0 ? [`${s.events.queued} event(s) waiting in memory`] : []),
      ...(s.events.malformed_records > 0 ? [`${s.events.malformed_records} malformed record(s) skipped by queries`] : []),
    ])}`,
  ];
  if (s.state.recovered_at_open) lines.push(`state store at start:   ${s.state.recovered_at_open}`);
  if (s.events.recovered_at_open) lines.push(`event history at start: ${s.events.recovered_at_open}`);
  if (s.state.quarantined.length === 0) return [...lines, 'quarantined:    none'].join('\n');
  return [
    ...lines,
    `quarantined:    ${s.state.quarantined.length} stored record(s), not loaded:`,
    ...s.state.quarantined.map((q) => `  ${q.id}  ${q.name ?? '-'}  ${q.reason}`),
    "  (the stored text is in 'svc storage --json'; 'svc storage restore <id>' puts one back once it loads, 'svc storage discard <id>' deletes one)",
  ].join('\n');
}

export function registerStorage(program: Command, ctx: CliContext): void {
  const storage = program
    .command('storage')
    .description('health of the state store and event history: full disk, quarantined records, damage found at start')
    .action(async () => {
      const s = await ctx.client().get<Storage>('/api/v1/system/storage');
      ctx.print(ctx.json() ? JSON.stringify(s, null, 2) : formatStorage(s));
    });
  storage
    .command('restore <id>')
    .description('put a quarantined record back among the programs, stopped, if it loads now (its id, or its name when one record has it)')
    .action(async (given: string) => {
      const id = await quarantinedId(ctx, given);
      const r = await ctx.client().post<{ id: string; name: string }>(`/api/v1/system/storage/quarantine/${encodeURIComponent(id)}/restore`);
      ctx.print(ctx.json() ? JSON.stringify(r) : `restored ${r.name} (${r.id}), stopped: 'svc start ${r.name}' runs it`);
    });
  storage
    .command('discard <id>')
    .description('delete a quarantined record for good (its id, or its name when one record has it)')
    .action(async (given: string) => {
      const id = await quarantinedId(ctx, given);
      const r = await ctx.client().delete<{ id: string; name: string | null }>(`/api/v1/system/storage/quarantine/${encodeURIComponent(id)}`);
      ctx.print(ctx.json() ? JSON.stringify(r) : `discarded quarantined record ${r.id}${r.name ? ` (${r.name})` : ''}`);
    });
}

/**
 * The id of the quarantined record `given` names: its id, or the name the listing shows when
 * exactly one record has it. Two records of one name (a duplicate is a reason to quarantine)
 * must be told apart by id; an unknown one is left for svcd's 404.
 */
async function quarantinedId(ctx: CliContext, given: string): Promise<string> {
  const { quarantined } = (await ctx.client().get<Storage>('/api/v1/system/storage')).state;
  if (quarantined.some((q) => q.id === given)) return given;
  const named = quarantined.filter((q) => q.name === given);
  if (named.length > 1) throw new CliError(`${named.length} quarantined records are named '${given}': give the id of the one you mean (${named.map((q) => q.id).join(', ')})`, 2);
  return named[0]?.id ?? given;
}

import type { Command } from 'commander';
import type { EventRecord, EventStats } from '../../../api/wire.js';
import { routes } from '../../client/routes.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { timestamp } from '../../client/format.js';
import { terminalSafe } from '../../client/terminal-text.js';
import { table } from '../format.js';
import { resolvePrograms } from '../programs.js';
import { EVENT_TYPES } from '../../../state/events/types.js';
import { TIME_ARG_HELP, timeArg } from '../time-arg.js';

type EventRow = Pick<EventRecord, 'id' | 'ts_ms' | 'program_name' | 'event' | 'exit_code' | 'signal' | 'retry_count' | 'msg'>;
interface Flags {
  limit: string;
  from?: string;
  to?: string;
  type?: string;
  exitCode?: string;
  q?: string;
  stats?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function integer(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined && !/^-?\d+$/.test(value)) throw new CliError(`${flag}: must be a whole number, got '${value}'`, 2);
  return value;
}

/** The API's maximum `limit` (docs/events.md); a larger `--limit` is fetched page by page. */
export const EVENTS_PAGE = 1000;

/** The query string of `svc events`: newest first, every flag mapped to its API parameter. */
export function eventsQuery(o: Flags, programId: string | undefined): URLSearchParams {
  const limit = integer(o.limit, '--limit') ?? '50';
  if (Number(limit) < 1) throw new CliError(`--limit: must be at least 1, got '${limit}'`, 2);
  const q = new URLSearchParams({ order: 'desc', limit });
  const add = (name: string, value: string | undefined) => value !== undefined && q.set(name, value);
  add('program_id', programId);
  const from = timeArg(o.from, '--from');
  const to = timeArg(o.to, '--to');
  // Said here in the flags' words (svcd's 400 names its query parameters, and exits 1).
  if (from !== undefined && to !== undefined && Number(from) > Number(to)) {
    throw new CliError(`--from ${o.from} (${timestamp(Number(from) * 1000)}) is after --to ${o.to} (${timestamp(Number(to) * 1000)})`, 2);
  }
  if (o.type !== undefined && !(EVENT_TYPES as readonly string[]).includes(o.type)) throw new CliError(`--type: unknown event type '${o.type}' (one of ${EVENT_TYPES.join(', ')})`, 2);
  add('from', from);
  add('to', to);
  add('event_type', o.type);
  add('exit_code', integer(o.exitCode, '--exit-code'));
  add('q', o.q);
  return q;
}

/**
 * Reads up to `limit` rows of the query, newest first, in pages of at most EVENTS_PAGE (`offset`).
 * Later pages are pinned to `to` = the second of the newest row, so events recorded while paging
 * cannot keep shifting them; the few of that same second that do are skipped by id, so no row is
 * shown twice.
 */
export async function fetchEvents<T extends { id: string; ts_ms: number }>(get: (path: string) => Promise<T[]>, query: URLSearchParams): Promise<T[]> {
  const want = Number(query.get('limit'));
  const rows: T[] = [];
  const seen = new Set<string>();
  const q = new URLSearchParams(query);
  for (let offset = 0; rows.length < want; ) {
    const size = Math.min(EVENTS_PAGE, want - rows.length);
    q.set('limit', String(size));
    if (offset > 0) q.set('offset', String(offset));
    const page = await get(`/api/v1/events?${q.toString()}`);
    if (offset === 0 && page.length > 0) {
      const newest = Math.floor(page[0].ts_ms / 1000);
      if (!q.has('to') || Number(q.get('to')) > newest) q.set('to', String(newest));
    }
    const before = rows.length;
    for (const row of page) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
    offset += page.length;
    // A short page ends the history; a page of rows already read (a burst of events in the pinned
    // second) ends it too, so the loop always terminates.
    if (page.length < size || rows.length === before) break;
  }
  return rows;
}

/** The list's filters, which the statistics do not take (GET /events/stats reads program_id only). */
const FILTER_FLAGS: readonly [keyof Flags, string][] = [
  ['from', '--from'],
  ['to', '--to'],
  ['type', '--type'],
  ['exitCode', '--exit-code'],
  ['q', '--q'],
];

/**
 * `--stats` counts every retained event of the program (or of the daemon): a filter given with it
 * would be ignored and the counts taken for the filtered ones, so it is a usage error.
 */
export function checkStatsFlags(o: Flags, limitGiven: boolean): void {
  const given = FILTER_FLAGS.filter(([key]) => o[key] !== undefined).map(([, flag]) => flag);
  if (limitGiven) given.unshift('--limit');
  if (given.length === 0) return;
  throw new CliError(
    `--stats counts every retained event and cannot be narrowed by ${given.join(', ')}; leave ${given.length === 1 ? 'it' : 'them'} out, or list the events without --stats`,
    2,
  );
}

function renderStats(s: EventStats): string {
  const range = s.first_ts === null ? 'no events' : `${timestamp(s.first_ts * 1000)} .. ${timestamp((s.last_ts ?? s.first_ts) * 1000)}`;
  const rows = Object.entries(s.by_type).sort((a, b) => b[1] - a[1]);
  return `total ${s.total} (${range})\n${table(['TYPE', 'COUNT'], rows)}`;
}

/**
 * A message as one table cell: it may carry what a program wrote (the last line of an exec
 * probe's output, a spawn error), so escape sequences are dropped (an OSC retitled the terminal,
 * `ESC[2J` cleared it) and line breaks, carriage returns included, show as `↵` (a `\r` sent the
 * cursor back over the row). `--json` gives the message as recorded.
 */
function messageCell(msg: string): string {
  return terminalSafe(msg.replace(/\r/g, '\n'), { colour: false });
}

export function renderEvents(rows: EventRow[]): string {
  if (rows.length === 0) return 'no events';
  const detail = (r: EventRow) =>
    [r.exit_code !== null ? `code=${r.exit_code}` : '', r.signal !== null ? `sig=${r.signal}` : '', r.retry_count !== null ? `retry=${r.retry_count}` : '']
      .filter(Boolean)
      .join(' ');
  return table(['TIME', 'PROGRAM', 'EVENT', 'DETAIL', 'MESSAGE'], rows.map((r) => [timestamp(r.ts_ms), r.program_name, r.event, detail(r) || '-', messageCell(r.msg)]));
}

export function registerEvents(program: Command, ctx: CliContext): void {
  program
    .command('events [program]')
    .description('event history of a program (name or UUID, removed programs by UUID) or of the whole daemon, newest first')
    .option('--limit <n>', 'rows to show (default 50; above 1000 fetched in pages)', '50')
    .option('--from <time>', `events at or after this time: ${TIME_ARG_HELP}`)
    .option('--to <time>', 'events at or before this time (as --from)')
    .option('--type <name>', 'only this event type, e.g. process_exit')
    .option('--exit-code <n>', 'only this exit code')
    .option('--q <text>', 'only events whose message contains this text (any case)')
    .option('--stats', 'counts by type and the time range instead of the list')
    .action(async (ref: string | undefined, o: Flags, cmd: Command) => {
      if (o.stats) checkStatsFlags(o, cmd.getOptionValueSource('limit') === 'cli');
      const client = ctx.client();
      // A UUID is used as is, so events of a removed program stay reachable.
      const programId = ref === undefined ? undefined : UUID.test(ref) ? ref : (await resolvePrograms(client, [ref]))[0].id;
      if (o.stats) {
        const stats = await routes.eventStats(client, programId);
        return ctx.print(ctx.json() ? JSON.stringify(stats, null, 2) : renderStats(stats));
      }
      const rows = await fetchEvents((path) => client.get<EventRow[]>(path), eventsQuery(o, programId));
      ctx.print(ctx.json() ? JSON.stringify(rows, null, 2) : renderEvents(rows));
    });
}

import { invalid } from '../state/errors.js';
import { DEFAULT_LIMIT, eventQuery, MAX_LIMIT, MAX_SORTED_OFFSET, SORT_KEYS, type EventQuery, type SortKey } from '../state/events/query-types.js';
import { EVENT_TYPES, type EventType } from '../state/events/types.js';
import { integerParam } from './params.js';
import { UUID } from './program-path.js';

type Query = Record<string, string | string[] | undefined>;

/** The filters of both history routes (spec, Event history); GET /events also takes program_id. */
export const EVENT_FILTER_PARAMS = ['from', 'to', 'event_type', 'exit_code', 'q', 'limit', 'offset', 'sort_by', 'order'] as const;

function text(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw invalid(`${name}: given more than once`);
  return value === '' ? undefined : value;
}

/** `program_id`: a program UUID (lower-cased), or undefined when absent. */
export function programIdParam(value: string | string[] | undefined): string | undefined {
  const id = text(value, 'program_id');
  if (id !== undefined && !UUID.test(id)) throw invalid(`program_id: must be a program UUID, got '${id}'`);
  return id?.toLowerCase();
}

/** The last second of year 9999: a larger `from`/`to` is a time in milliseconds (or nonsense). */
const LAST_SECOND = 253_402_300_799;

/** A bound in Unix seconds; one given in milliseconds matched nothing, silently. */
function unixSeconds(value: string | string[] | undefined, name: string): number | undefined {
  const n = integerParam(value, name, { min: 0 });
  if (n !== undefined && n > LAST_SECOND) throw invalid(`${name}: must be Unix seconds (at most ${LAST_SECOND}, the end of year 9999); ${n} looks like milliseconds`);
  return n;
}

/**
 * The history query from URL parameters (spec, Event history); 400 naming the parameter on a
 * bad value. `limit` defaults to DEFAULT_LIMIT and is at most MAX_LIMIT.
 */
export function parseEventQuery(query: Query, programId?: string): EventQuery {
  const eventType = text(query.event_type, 'event_type');
  if (eventType !== undefined && !(EVENT_TYPES as readonly string[]).includes(eventType)) {
    throw invalid(`event_type: unknown event type '${eventType}' (one of ${EVENT_TYPES.join(', ')})`);
  }
  const sortBy = text(query.sort_by, 'sort_by') ?? 'time';
  if (!(SORT_KEYS as readonly string[]).includes(sortBy)) throw invalid(`sort_by: must be one of ${SORT_KEYS.join(', ')}, got '${sortBy}'`);
  const order = text(query.order, 'order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid(`order: must be asc or desc, got '${order}'`);
  const from = unixSeconds(query.from, 'from');
  const to = unixSeconds(query.to, 'to');
  if (from !== undefined && to !== undefined && from > to) throw invalid(`from: must not be after to (${from} > ${to})`);
  // The path names the program: another program_id in the query would be ignored silently.
  const asked = programId === undefined ? undefined : programIdParam(query.program_id);
  if (asked !== undefined && asked !== programId) throw invalid(`program_id: the path names program ${programId}; use GET /api/v1/events?program_id=${asked} for another`);
  const offset = integerParam(query.offset, 'offset', { min: 0, fallback: 0 }) ?? 0;
  if (sortBy !== 'time' && offset > MAX_SORTED_OFFSET) {
    throw invalid(`offset: at most ${MAX_SORTED_OFFSET} when sort_by is ${sortBy} (that sort holds offset + limit events in memory); narrow the range with from/to, or sort by time, which takes any offset`);
  }
  return eventQuery({
    program_id: programId ?? programIdParam(query.program_id),
    from,
    to,
    event_type: eventType as EventType | undefined,
    exit_code: integerParam(query.exit_code, 'exit_code'),
    q: text(query.q, 'q'),
    limit: integerParam(query.limit, 'limit', { min: 1, max: MAX_LIMIT, fallback: DEFAULT_LIMIT }),
    offset,
    sort_by: sortBy as SortKey,
    order,
  });
}

import { invalid } from '../../../state/errors.js';
import type { AuditRecord } from './chain.js';

export interface AuditQuery {
  /** Unix seconds, inclusive. */
  from?: number;
  to?: number;
  /** A token id, or `secret`, `open`, `anonymous`, `svcd`. */
  actor?: string;
  role?: string;
  method?: string;
  /** Records whose path starts with this. */
  path?: string;
  status?: number;
  limit: number;
  offset: number;
  order: 'asc' | 'desc';
}

export const AUDIT_LIMIT = { default: 100, max: 1000 };
/** Its query parameters; any other is refused before the route runs (api/route-table.ts ROUTE_QUERY). */
export const AUDIT_QUERY_PARAMS = ['from', 'to', 'actor', 'role', 'method', 'path', 'status', 'limit', 'offset', 'order'] as const;

/** Parses the query string of GET /api/v1/audit; 400 naming the parameter. */
export function parseAuditQuery(q: Record<string, string | string[] | undefined>): AuditQuery {
  const one = (key: string): string | undefined => {
    const v = q[key];
    if (Array.isArray(v)) throw invalid(`${key}: given more than once`);
    return v === '' ? undefined : v;
  };
  const int = (key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const v = one(key);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw invalid(`${key}: must be a whole number from ${min} to ${max}`);
    return Number(v);
  };
  const order = one('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid('order: must be asc or desc');
  const method = one('method')?.toUpperCase();
  return {
    from: int('from', 0),
    to: int('to', 0),
    actor: one('actor'),
    role: one('role'),
    method,
    path: one('path'),
    status: int('status', 100, 599),
    limit: int('limit', 1, AUDIT_LIMIT.max) ?? AUDIT_LIMIT.default,
    offset: int('offset', 0) ?? 0,
    order,
  };
}

function actorKey(r: AuditRecord): string {
  return r.actor.kind === 'token' ? (r.actor.id ?? '') : r.actor.kind;
}

/** The records that match, in order, one page of them. */
export function filterAudit(records: AuditRecord[], q: AuditQuery): AuditRecord[] {
  const hits = records.filter(
    (r) =>
      (q.from === undefined || r.ts >= q.from * 1000) &&
      (q.to === undefined || r.ts < (q.to + 1) * 1000) &&
      (q.actor === undefined || actorKey(r) === q.actor) &&
      (q.role === undefined || r.actor.role === q.role) &&
      (q.method === undefined || r.method === q.method) &&
      (q.path === undefined || r.path.startsWith(q.path)) &&
      (q.status === undefined || r.status === q.status),
  );
  if (q.order === 'desc') hits.reverse();
  return hits.slice(q.offset, q.offset + q.limit);
}

import type { ApiClient } from '../cli/client.js';
import type { DashboardClient, EventQuery } from './client.js';
import { followLogs } from './log-stream.js';
import type { BatchAction, BatchOutcome, EventItem, LogLine, ProgramDetail, ProgramItem, SystemStats } from './types.js';

export interface ApiDashboardOptions {
  /** The same address the ApiClient uses: http(s)://host:port or unix:/path. */
  url: string;
  token?: string;
  /** Poll interval of the log fallback (no WebSocket route). */
  logPollMs?: number;
}

/** ws://host:port/ws?id=..., or ws+unix:/path:/ws?id=... for a Unix socket. */
export function logSocketUrl(url: string, id: string): string {
  const path = `/ws?id=${encodeURIComponent(id)}`;
  if (url.startsWith('unix:')) return `ws+unix:${url.slice('unix:'.length).replace(/^\/\//, '')}:${path}`;
  return `${url.replace(/\/+$/, '').replace(/^http/, 'ws')}${path}`;
}

/** The dashboard's client over the CLI's HTTP client and a WebSocket for logs. */
export function apiDashboardClient(api: ApiClient, opts: ApiDashboardOptions): DashboardClient {
  const tail = async (id: string): Promise<LogLine[]> =>
    (await api.get<{ logs: LogLine[] }>(`/api/v1/programs/${id}/logs?tail=200`)).logs;
  return {
    list: () => api.get<ProgramItem[]>('/api/v1/programs'),
    detail: (id) => api.get<ProgramDetail>(`/api/v1/programs/${id}`),
    events: (q: EventQuery) => {
      const params = new URLSearchParams({ order: 'desc', limit: String(q.limit) });
      if (q.programId) params.set('program_id', q.programId);
      if (q.type) params.set('event_type', q.type);
      return api.get<EventItem[]>(`/api/v1/events?${params}`);
    },
    stats: () => api.get<SystemStats>('/api/v1/system/stats').catch(() => null),
    health: () => api.get<{ version: string }>('/health'),
    batch: async (ids: string[], action: BatchAction) =>
      (await api.post<{ results: BatchOutcome[] }>('/api/v1/programs/batch', { target_ids: ids, action })).results,
    subscribeLogs: (id, sink) =>
      followLogs({ url: logSocketUrl(opts.url, id), token: opts.token, tail: () => tail(id), pollMs: opts.logPollMs ?? 1000 }, sink),
  };
}

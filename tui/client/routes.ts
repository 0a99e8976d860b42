import type {
  AuthStatus,
  BatchRequest,
  BatchResult,
  CreateResult,
  EventList,
  EventStatsResult,
  Health,
  LoginResult,
  LogFlushResult,
  LogsResult,
  ProgramDetail,
  ProgramSummary,
  ShutdownAccepted,
  StackApplyResult,
  StackExport,
} from '../../api/wire.js';
import type { ApiClient, RawBody } from './http.js';

/**
 * The routes of svcd as typed calls (docs/api.md); the types come from api/wire.ts, the one
 * definition the daemon answers with. `{id}` is always the program UUID.
 */
export const routes = {
  health: (c: ApiClient) => c.get<Health>('/health'),
  listPrograms: (c: ApiClient) => c.get<ProgramSummary[]>('/api/v1/programs'),
  getProgram: (c: ApiClient, id: string) => c.get<ProgramDetail>(`/api/v1/programs/${id}`),
  createProgram: (c: ApiClient, config: Record<string, unknown>) => c.post<CreateResult>('/api/v1/programs', config),
  updateProgram: (c: ApiClient, id: string, patch: Record<string, unknown>) => c.put<ProgramDetail>(`/api/v1/programs/${id}`, patch),
  // An action's answer waits for its effect, as long as svcd's own bound for it (a reload: its new
  // process's start period and probes, then stopsecs), which may pass the client's idle timeout
  // (120 s; the dashboard's 5 s). A hung svcd is told by the liveness check, not by that timeout.
  batch: (c: ApiClient, req: BatchRequest) => c.post<BatchResult>('/api/v1/programs/batch', req, { timeoutMs: 0 }),
  logs: (c: ApiClient, id: string, q: URLSearchParams) => c.get<LogsResult>(`/api/v1/programs/${id}/logs?${q}`),
  flushLogs: (c: ApiClient, id: string) => c.post<LogFlushResult>(`/api/v1/programs/${id}/logs/flush`),
  shutdown: (c: ApiClient) => c.post<ShutdownAccepted>('/api/v1/system/shutdown'),
  events: (c: ApiClient, q: URLSearchParams) => c.get<EventList>(`/api/v1/events?${q}`),
  eventStats: (c: ApiClient, programId?: string) => c.get<EventStatsResult>(`/api/v1/events/stats${programId ? `?program_id=${programId}` : ''}`),
  applyStack: (c: ApiClient, q: URLSearchParams, body: RawBody) => c.put<StackApplyResult>(`/api/v1/stack?${q}`, body),
  exportStack: (c: ApiClient) => c.get<StackExport>('/api/v1/stack'),
  login: (c: ApiClient) => c.post<LoginResult>('/api/v1/auth/login'),
  authStatus: (c: ApiClient) => c.get<AuthStatus>('/api/v1/auth/status'),
  logout: (c: ApiClient) => c.post<unknown>('/api/v1/auth/logout'),
};

import type { DashboardClient, EventQuery, LogSink } from '../../tui/dashboard/client.js';
import type { BatchAction, BatchOutcome, EventItem, ProgramDetail, ProgramItem } from '../../tui/dashboard/types.js';

export function program(name: string, status = 'Running', extra: Partial<ProgramItem> = {}): ProgramItem {
  const n = [...name].reduce((h, c) => h + c.charCodeAt(0), 0);
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name,
    status,
    pid: status === 'Running' ? 1000 + n : null,
    cpu_usage: 0,
    mem_usage: 0,
    restarts: 0,
    started_at: status === 'Running' ? Date.now() - 5000 : null,
    ...extra,
  };
}

/** An in-memory DashboardClient: records batch calls, can fail on demand, can "go away". */
export class FakeDashboardClient implements DashboardClient {
  calls: { ids: string[]; action: BatchAction }[] = [];
  listCalls = 0;
  down: string | null = null;
  batchError: string | null = null;
  subscriptions: string[] = [];
  sinks = new Map<string, LogSink>();

  constructor(public programs: ProgramItem[], public eventRows: EventItem[] = []) {}

  async list() {
    this.listCalls++;
    if (this.down) throw new Error(this.down);
    return this.programs.map((p) => ({ ...p }));
  }
  async detail(id: string): Promise<ProgramDetail> {
    const p = this.programs.find((x) => x.id === id);
    if (!p) throw new Error('not found');
    return {
      ...p,
      config: { name: p.name, command: 'node', args: [`${p.name}.js`], cwd: '/srv', autorestart: 'always', retry_limit: 3, depends_on: ['db'], health_check: { type: 'http' }, source: 'stack.toml' },
      state: {
        status: p.status,
        uptime_secs: 5,
        retries: 0,
        next_retry_at: null,
        last_exit: { exit_code: 3, signal: null, at: 0, duration_ms: 1500, reason: 'crash', msg: 'crashed: exit code 3' },
        detail: null,
        health: { healthy: true, failures: 0, successes: 2, last: null, recent: [{ at: 0, ok: true, latency_ms: 4, message: 'HTTP 200' }] },
      },
    };
  }
  async events(q: EventQuery) {
    return this.eventRows.filter((e) => !q.type || e.event === q.type).slice(0, q.limit);
  }
  async stats() {
    return null;
  }
  async health() {
    if (this.down) throw new Error(this.down);
    return { version: '9.9.9' };
  }
  async batch(ids: string[], action: BatchAction): Promise<BatchOutcome[]> {
    this.calls.push({ ids, action });
    if (this.batchError) throw new Error(this.batchError);
    return ids.map((id) => {
      const p = this.programs.find((x) => x.id === id);
      if (p && action.type === 'Stop') p.status = 'Stopped';
      return { id, name: p?.name ?? '', ok: true, status: p?.status };
    });
  }
  subscribeLogs(id: string, sink: LogSink) {
    this.subscriptions.push(id);
    this.sinks.set(id, sink);
    sink.mode('live');
    sink.lines([{ source: 'stdout', content: `hello from ${id.slice(-4)}` }, { source: 'stderr', content: 'warn: disk' }], true);
    return () => this.sinks.delete(id);
  }
}

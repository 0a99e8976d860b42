import type { ActionOutcome, BatchAction, EventRecord, ProgramDetail, ProgramStatus, WatchProgram } from '../../api/wire.js';
import type { DashboardClient, EventQuery, LogSink, WatchSink } from '../../tui/dashboard/client.js';

export function program(name: string, status: ProgramStatus = 'Running', extra: Partial<WatchProgram> = {}): WatchProgram {
  const n = [...name].reduce((h, c) => h + c.charCodeAt(0), 0);
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name,
    group_name: null,
    status,
    pid: status === 'Running' ? 1000 + n : null,
    cpu_usage: 0,
    mem_usage: 0,
    restarts: 0,
    started_at: status === 'Running' ? Date.now() - 5000 : null,
    health: status === 'Running' ? { healthy: true, failures: 0 } : null,
    source: 'stack.toml',
    ...extra,
  };
}

/**
 * An in-memory DashboardClient: a daemon whose watch stream sends a snapshot, then what `push`
 * and `remove` say; records batch calls, can fail on demand, and can "go away" (`down`).
 */
export class FakeDashboardClient implements DashboardClient {
  calls: { ids: string[]; action: BatchAction }[] = [];
  batchError: string | null = null;
  subscriptions: string[] = [];
  sinks = new Map<string, LogSink>();
  watchers = new Set<WatchSink>();
  private lost: string | null = null;

  constructor(
    public programs: WatchProgram[],
    public eventRows: EventRecord[] = [],
  ) {}

  /** While set, the watch stream is down with this error (and retries); cleared, it reconnects. */
  get down(): string | null {
    return this.lost;
  }
  set down(error: string | null) {
    this.lost = error;
    for (const sink of this.watchers) {
      if (error) sink.disconnected(error, 1000);
      else this.snapshot(sink);
    }
  }

  /** The daemon changed a program: the stream sends its new entry. */
  push(p: WatchProgram): void {
    const i = this.programs.findIndex((x) => x.id === p.id);
    if (i < 0) this.programs.push(p);
    else this.programs[i] = p;
    if (!this.lost) for (const sink of this.watchers) sink.program({ ...p });
  }

  remove(id: string): void {
    this.programs = this.programs.filter((p) => p.id !== id);
    if (!this.lost) for (const sink of this.watchers) sink.removed(id);
  }

  private snapshot(sink: WatchSink): void {
    sink.snapshot(
      this.programs.map((p) => ({ ...p })),
      null,
    );
  }

  watch(sink: WatchSink) {
    this.watchers.add(sink);
    queueMicrotask(() => {
      if (!this.watchers.has(sink)) return;
      if (this.lost) sink.disconnected(this.lost, 1000);
      else this.snapshot(sink);
    });
    return () => this.watchers.delete(sink);
  }
  async detail(id: string): Promise<ProgramDetail> {
    const p = this.programs.find((x) => x.id === id);
    if (!p) throw new Error('not found');
    return {
      ...p,
      config: { name: p.name, command: 'node', args: [`${p.name}.js`], cwd: '/srv', autorestart: 'true', retry_limit: 3, depends_on: ['db'], health_check: { type: 'http', url: 'http://127.0.0.1/' }, source: 'stack.toml' },
      state: {
        status: p.status,
        desired: 'running',
        pid: p.pid,
        started_at: p.started_at,
        uptime_secs: 5,
        retries: 0,
        restarts: p.restarts,
        next_retry_at: null,
        last_exit: { exit_code: 3, signal: null, at: 0, duration_ms: 1500, reason: 'crash', msg: 'crashed: exit code 3' },
        detail: null,
        health: { healthy: true, failures: 0, successes: 2, last: null, recent: [{ at: 0, ok: true, latency_ms: 4, message: 'HTTP 200' }] },
        cpu_usage: p.cpu_usage,
        mem_usage: p.mem_usage,
      },
      revision: 1,
      created_at: 0,
      updated_at: 0,
    };
  }
  async events(q: EventQuery) {
    return this.eventRows.filter((e) => !q.type || e.event === q.type).slice(0, q.limit);
  }
  async health() {
    if (this.lost) throw new Error(this.lost);
    return { version: '9.9.9' };
  }
  async batch(ids: string[], action: BatchAction): Promise<ActionOutcome[]> {
    this.calls.push({ ids, action });
    if (this.batchError) throw new Error(this.batchError);
    return ids.map((id) => {
      const p = this.programs.find((x) => x.id === id);
      if (p && action.type === 'Stop') this.push({ ...p, status: 'Stopped', pid: null, started_at: null });
      return { id, name: p?.name ?? '', ok: true, status: action.type === 'Stop' ? 'Stopped' : p?.status };
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

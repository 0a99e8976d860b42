import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { LastExit, ObservedProgram, ObservedRegistry } from '../../state/observed.js';
import { ALIVE, PROGRAM_STATUSES } from '../../state/status.js';
import type { ProgramStore } from '../../state/store.js';
import type { MetricSource } from './metrics.js';

/**
 * Per-program families, labelled `{name, id}`. Gauges are rebuilt from the store and the
 * observed registry at every scrape (a removed program disappears); exits are counted from the
 * observed stream: a snapshot of each program's last exit first, then every new `last_exit`
 * counts once, labelled by its reason (crash, exit, stop, restart...).
 */
export class ProgramMetrics implements MetricSource {
  private readonly lastSeen = new Map<string, LastExit | null>();
  /** id -> reason -> exits counted since svcd started. */
  private readonly exitCounts = new Map<string, Map<string, number>>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: Pick<ProgramStore, 'list' | 'get'>,
    private readonly observed: ObservedRegistry,
    /** Marks usage figures as wanted, so the usage sampler keeps sampling while scraped. */
    private readonly onRead: () => void = () => undefined,
  ) {
    this.follow(); // exits count from svcd's start, not from the first scrape (when install runs)
  }

  install(registry: Registry, prom: PromClient): void {
    const programs = () => this.store.list().map((r) => ({ labels: { name: r.config.name, id: r.id }, o: this.observed.get(r.id) }));
    /** A per-program gauge over the programs `which` selects (all by default). */
    const gauge = (name: string, help: string, value: (o: ObservedProgram) => number, which: (o: ObservedProgram) => boolean = () => true) =>
      new prom.Gauge({
        name,
        help,
        labelNames: ['name', 'id'],
        registers: [registry],
        collect() {
          this.reset();
          for (const p of programs()) if (which(p.o)) this.set(p.labels, value(p.o));
        },
      });

    const onRead = this.onRead;
    new prom.Gauge({
      name: 'svc_program_status',
      help: 'Program status: 1 for the current status, 0 for the others',
      labelNames: ['name', 'id', 'status'],
      registers: [registry],
      collect() {
        onRead();
        this.reset();
        for (const p of programs()) for (const status of PROGRAM_STATUSES) this.set({ ...p.labels, status }, p.o.status === status ? 1 : 0);
      },
    });
    gauge('svc_program_up', 'Whether the program has a live process (1) or not (0)', (o) => (ALIVE.has(o.status) ? 1 : 0));
    // Base unit (Prometheus naming): a ratio of one core, 1 = one full core; the API's cpu_usage is percent.
    gauge('svc_program_cpu_ratio', 'CPU usage of the main process as a ratio of one core (1 = one full core)', (o) => o.cpu_usage / 100);
    gauge('svc_program_memory_bytes', 'Resident set size of the main process in bytes', (o) => o.mem_usage);
    gauge('svc_program_retries', 'Restarts since the last stable run or manual start', (o) => o.retries);
    const probed = (o: ObservedProgram) => Boolean(o.health?.last);
    gauge('svc_health_probe_success', 'Outcome of the last health probe (1 passed, 0 failed)', (o) => (o.health?.last?.ok ? 1 : 0), probed);
    gauge('svc_health_probe_latency_seconds', 'Duration of the last health probe in seconds', (o) => (o.health?.last?.latency_ms ?? 0) / 1000, probed);
    gauge('svc_health_failures', 'Failed health probes in a row', (o) => o.health?.failures ?? 0, probed);
    const scheduled = (o: ObservedProgram) => Boolean(o.cron);
    gauge('svc_cron_runs_in_flight', 'Cron runs in flight', (o) => o.cron?.running ?? 0, scheduled);
    gauge('svc_cron_queued', 'Cron firings waiting for a free slot', (o) => o.cron?.queued ?? 0, scheduled);
    gauge('svc_cron_next_fire_timestamp_seconds', 'Unix time of the next firing (0 while paused)', (o) => (o.cron?.next_fire_at ?? 0) / 1000, scheduled);
    gauge('svc_cron_last_duration_seconds', 'Duration of the last finished run', (o) => o.cron?.last_run?.duration_secs ?? 0, scheduled);
    new prom.Counter({
      name: 'svc_program_restarts_total',
      help: 'Restarts by policy since svcd started',
      labelNames: ['name', 'id'],
      registers: [registry],
      collect() {
        this.reset();
        for (const p of programs()) this.inc(p.labels, p.o.restarts);
      },
    });
    const exitCounts = this.exitCounts;
    const store = this.store;
    new prom.Counter({
      name: 'svc_program_exits_total',
      help: 'Process exits seen since svcd started, by reason',
      labelNames: ['name', 'id', 'reason'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [id, byReason] of exitCounts) {
          const name = store.get(id)?.config.name;
          if (name === undefined) continue;
          for (const [reason, n] of byReason) this.inc({ name, id, reason }, n);
        }
      },
    });
  }

  /** Stops following the observed registry. */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private follow(): void {
    for (const id of this.observed.ids()) this.lastSeen.set(id, this.observed.get(id).last_exit);
    this.unsubscribe = this.observed.subscribe((id, o) => {
      if (!o) {
        this.lastSeen.delete(id);
        this.exitCounts.delete(id);
        return;
      }
      const before = this.lastSeen.get(id) ?? null;
      this.lastSeen.set(id, o.last_exit);
      if (!o.last_exit || o.last_exit === before || (before && before.at === o.last_exit.at && before.reason === o.last_exit.reason)) return;
      const reason = o.last_exit.reason || 'unknown';
      const byReason = this.exitCounts.get(id) ?? new Map<string, number>();
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
      this.exitCounts.set(id, byReason);
    });
  }
}

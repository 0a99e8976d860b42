import type { LastExit, ObservedProgram, ObservedRegistry } from '../../state/observed.js';
import type { ReloadOutcome } from '../../state/reload.js';
import { ALIVE, PROGRAM_STATUSES } from '../../state/status.js';
import type { ProgramStore } from '../../state/store.js';
import type { TextSource } from './metrics.js';
import { formatLabels, TextFamilies } from './text-families.js';

/** A per-program gauge: its value, and which programs have a sample (all by default). */
interface ProgramGauge {
  name: string;
  help: string;
  value: (o: ObservedProgram) => number;
  which?: (o: ObservedProgram) => boolean;
}

const probed = (o: ObservedProgram) => Boolean(o.health?.last);
const scheduled = (o: ObservedProgram) => Boolean(o.cron);

const GAUGES: readonly ProgramGauge[] = [
  { name: 'svc_program_up', help: 'Whether the program has a live process (1) or not (0)', value: (o) => (ALIVE.has(o.status) ? 1 : 0) },
  // Base unit (Prometheus naming): a ratio of one core, 1 = one full core; the API's cpu_usage is percent.
  { name: 'svc_program_cpu_ratio', help: 'CPU usage of the main process as a ratio of one core (1 = one full core)', value: (o) => o.cpu_usage / 100 },
  { name: 'svc_program_memory_bytes', help: 'Resident set size of the main process in bytes', value: (o) => o.mem_usage },
  { name: 'svc_program_retries', help: 'Restarts since the last stable run or manual start', value: (o) => o.retries },
  { name: 'svc_health_probe_success', help: 'Outcome of the last health probe (1 passed, 0 failed)', value: (o) => (o.health?.last?.ok ? 1 : 0), which: probed },
  { name: 'svc_health_probe_latency_seconds', help: 'Duration of the last health probe in seconds', value: (o) => (o.health?.last?.latency_ms ?? 0) / 1000, which: probed },
  { name: 'svc_health_failures', help: 'Failed health probes in a row', value: (o) => o.health?.failures ?? 0, which: probed },
  { name: 'svc_cron_runs_in_flight', help: 'Cron runs in flight', value: (o) => o.cron?.running ?? 0, which: scheduled },
  { name: 'svc_cron_queued', help: 'Cron firings waiting for a free slot', value: (o) => o.cron?.queued ?? 0, which: scheduled },
  { name: 'svc_cron_next_fire_timestamp_seconds', help: 'Unix time of the next firing (0 while paused)', value: (o) => (o.cron?.next_fire_at ?? 0) / 1000, which: scheduled },
  { name: 'svc_cron_last_duration_seconds', help: 'Duration of the last finished run', value: (o) => o.cron?.last_run?.duration_secs ?? 0, which: scheduled },
];

/**
 * Outcomes counted from the observed stream, per program and by one label: the value each
 * program has when counting starts is a snapshot, then every new one counts once.
 */
class OutcomeCounter<T extends { at: number }> {
  private readonly lastSeen = new Map<string, T | null>();
  /** id -> label -> outcomes counted since svcd started. */
  readonly counts = new Map<string, Map<string, number>>();

  constructor(
    private readonly of: (o: ObservedProgram) => T | null | undefined,
    private readonly labelOf: (outcome: T) => string,
  ) {}

  snapshot(id: string, o: ObservedProgram): void {
    this.lastSeen.set(id, this.of(o) ?? null);
  }

  forget(id: string): void {
    this.lastSeen.delete(id);
    this.counts.delete(id);
  }

  see(id: string, o: ObservedProgram): void {
    const before = this.lastSeen.get(id) ?? null;
    const now = this.of(o) ?? null;
    this.lastSeen.set(id, now);
    if (!now || now === before || (before && before.at === now.at && this.labelOf(before) === this.labelOf(now))) return;
    const label = this.labelOf(now) || 'unknown';
    const byLabel = this.counts.get(id) ?? new Map<string, number>();
    byLabel.set(label, (byLabel.get(label) ?? 0) + 1);
    this.counts.set(id, byLabel);
  }
}

/**
 * Per-program families, labelled `{name, id}`, written as text at every scrape from the store
 * and the observed registry (a removed program disappears; text-families.ts says why not through
 * prom-client). Exits and reloads are counted from the observed stream: every new `last_exit`
 * counts once by its reason (crash, exit, stop, restart...), every new `last_reload` by its
 * result (reloaded, failed, restarted, started).
 */
export class ProgramMetrics implements TextSource {
  private readonly exits = new OutcomeCounter<LastExit>((o) => o.last_exit, (e) => e.reason);
  private readonly reloads = new OutcomeCounter<ReloadOutcome>((o) => o.last_reload, (r) => r.result);
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: Pick<ProgramStore, 'list' | 'get'>,
    private readonly observed: ObservedRegistry,
    /** Marks usage figures as wanted, so the usage sampler keeps sampling while scraped. */
    private readonly onRead: () => void = () => undefined,
  ) {
    this.follow(); // exits count from svcd's start, not from the first scrape
  }

  text(): string {
    this.onRead();
    const programs = this.store.list().map((r) => ({ labels: formatLabels([['name', r.config.name], ['id', r.id]]), o: this.observed.get(r.id) }));
    const out = new TextFamilies();
    out.family('svc_program_status', 'gauge', 'Program status: 1 for the current status, 0 for the others');
    for (const p of programs) for (const status of PROGRAM_STATUSES) out.sample('svc_program_status', `${p.labels},status="${status}"`, p.o.status === status ? 1 : 0);
    for (const g of GAUGES) {
      out.family(g.name, 'gauge', g.help);
      for (const p of programs) if (!g.which || g.which(p.o)) out.sample(g.name, p.labels, g.value(p.o));
    }
    out.family('svc_program_restarts_total', 'counter', 'Restarts by policy since svcd started (a program in Backoff or Fatal across a crash of svcd: since its last stable run)');
    for (const p of programs) out.sample('svc_program_restarts_total', p.labels, p.o.restarts);
    this.counted(out, 'svc_program_exits_total', 'Process exits seen since svcd started, by reason', this.exits, 'reason');
    this.counted(out, 'svc_program_reloads_total', 'Reloads ended since svcd started, by result (reloaded, failed, restarted, started)', this.reloads, 'result');
    return out.toString();
  }

  private counted<T extends { at: number }>(out: TextFamilies, family: string, help: string, counter: OutcomeCounter<T>, label: string): void {
    out.family(family, 'counter', help);
    for (const [id, byLabel] of counter.counts) {
      const name = this.store.get(id)?.config.name;
      if (name === undefined) continue;
      for (const [value, n] of byLabel) out.sample(family, formatLabels([['name', name], ['id', id], [label, value]]), n);
    }
  }

  /** Stops following the observed registry. */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private follow(): void {
    const counters = [this.exits, this.reloads];
    for (const id of this.observed.ids()) for (const c of counters) c.snapshot(id, this.observed.get(id));
    this.unsubscribe = this.observed.subscribe((id, o) => {
      for (const c of counters) {
        if (o) c.see(id, o);
        else c.forget(id);
      }
    });
  }
}

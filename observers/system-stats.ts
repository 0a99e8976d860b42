import type { Clock } from '../reconciler/clock.js';
import type { SystemStats } from '../state/system-stats.js';
import type { HostReading } from './host-stats.js';

/** How often the snapshot is refreshed while it is read (spec: about every 3 s). */
export const SYSTEM_STATS_INTERVAL_MS = 3000;
/** Nobody read the snapshot for this long: stop refreshing it until the next read. */
export const SYSTEM_STATS_DEMAND_MS = 10_000;

/**
 * Keeps a snapshot of host cpu and memory, refreshed in the background while someone reads it
 * (a watch stream reads it every few seconds); requests only read `current()`, or `fresh()` to
 * get one at most an interval old. Nobody reading: no timer, an idle daemon does not wake up for
 * this. CPU is the busy share between two samples (after a quiet spell: since the last sample);
 * the first sample, having no previous one, reports the average since boot.
 */
export class SystemStatsSampler {
  private snapshot: SystemStats | null = null;
  private sampledAt = -Infinity;
  private previous: HostReading = { cpuBusy: 0, cpuTotal: 0, memTotalBytes: 0, memAvailableBytes: 0 };
  private cancel: (() => void) | null = null;
  private stopped = false;
  private started = false;
  private lastRead = -Infinity;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly deps: { clock: Clock; read: () => Promise<HostReading>; intervalMs?: number; onError?: (err: unknown) => void },
  ) {}

  /** Samples now (the baseline of the first cpu share); later samples follow reads. */
  start(): void {
    this.started = true;
    void this.sample();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
  }

  /** The latest snapshot (null only before the first sample completes); keeps it refreshed for a while. */
  current(): SystemStats | null {
    this.noteRead();
    return this.snapshot;
  }

  /** A snapshot at most one interval old: samples first when the last one is older. */
  async fresh(): Promise<SystemStats | null> {
    this.noteRead();
    if (this.deps.clock.now() - this.sampledAt >= this.interval()) await this.sample();
    return this.snapshot;
  }

  /** One sample (a sample already running is shared); exposed for tests. */
  sampleNow(): Promise<void> {
    return this.sample();
  }

  private interval(): number {
    return this.deps.intervalMs ?? SYSTEM_STATS_INTERVAL_MS;
  }

  private noteRead(): void {
    this.lastRead = this.deps.clock.now();
    this.arm();
  }

  private arm(): void {
    if (!this.started || this.stopped || this.cancel) return;
    const due = Math.max(0, this.sampledAt + this.interval() - this.deps.clock.now());
    this.cancel = this.deps.clock.setTimer(due, () => void this.tick());
  }

  private async tick(): Promise<void> {
    this.cancel = null;
    await this.sample();
    if (this.deps.clock.now() - this.lastRead < SYSTEM_STATS_DEMAND_MS) this.arm();
  }

  private sample(): Promise<void> {
    this.inFlight ??= this.read()
      .catch((err: unknown) => this.deps.onError?.(err)) // keep the previous snapshot; try again on the next read
      .finally(() => {
        this.sampledAt = this.deps.clock.now();
        this.inFlight = null;
      });
    return this.inFlight;
  }

  private async read(): Promise<void> {
    const r = await this.deps.read();
    const busy = r.cpuBusy - this.previous.cpuBusy;
    const total = r.cpuTotal - this.previous.cpuTotal;
    this.previous = r;
    this.snapshot = {
      cpu_percent: total > 0 ? Math.round(Math.min(100, Math.max(0, (busy / total) * 100)) * 100) / 100 : (this.snapshot?.cpu_percent ?? 0),
      memory_used_bytes: Math.max(0, r.memTotalBytes - r.memAvailableBytes),
      memory_total_bytes: r.memTotalBytes,
      timestamp: Math.floor(this.deps.clock.now() / 1000),
    };
  }
}

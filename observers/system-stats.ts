import type { Clock } from '../reconciler/clock.js';
import type { SystemStats } from '../state/system-stats.js';
import type { HostReading } from './host-stats.js';

/** How often the snapshot is refreshed (spec: about every 3 s). */
export const SYSTEM_STATS_INTERVAL_MS = 3000;

/**
 * Keeps a snapshot of host cpu and memory, refreshed in the background; requests only read
 * `current()`. CPU is the busy share between two samples; the first sample, having no previous
 * one, reports the average since boot.
 */
export class SystemStatsSampler {
  private snapshot: SystemStats | null = null;
  private previous: HostReading = { cpuBusy: 0, cpuTotal: 0, memTotalBytes: 0, memAvailableBytes: 0 };
  private cancel: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly deps: { clock: Clock; read: () => Promise<HostReading>; intervalMs?: number; onError?: (err: unknown) => void },
  ) {}

  /** Samples now, then every interval. */
  start(): void {
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  /** The latest snapshot; null only before the first sample completes. */
  current(): SystemStats | null {
    return this.snapshot;
  }

  /** One sample; exposed for tests. */
  async sampleNow(): Promise<void> {
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

  private async tick(): Promise<void> {
    try {
      await this.sampleNow();
    } catch (err) {
      this.deps.onError?.(err); // keep the previous snapshot; try again next interval
    }
    if (this.stopped) return;
    this.cancel = this.deps.clock.setTimer(this.deps.intervalMs ?? SYSTEM_STATS_INTERVAL_MS, () => void this.tick());
  }
}

import type { Clock } from '../reconciler/clock.js';
import type { ObservedRegistry } from '../state/observed.js';
import type { OsPort } from './os/port.js';

/** How long after the last read of usage figures the sampler keeps sampling. */
const DEMAND_WINDOW_MS = 60_000;

/**
 * Samples cpu and memory of every live program in one batch per interval (never per request),
 * and only while someone has read usage recently (list, detail, metrics): an unwatched daemon
 * costs no CPU for it. Figures are for the main process of each program.
 */
export class UsageSampler {
  private cancel: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly deps: { os: OsPort; clock: Clock; observed: ObservedRegistry; livePids: () => Map<string, number>; intervalMs: number },
  ) {}

  start(): void {
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  /** One sampling pass; exposed for tests and for the first read after an idle period. */
  async sampleNow(): Promise<void> {
    const live = this.deps.livePids();
    const usage = await this.deps.os.sampleUsage([...live.values()]);
    for (const [id, pid] of live) {
      const sample = usage.get(pid);
      if (sample && this.deps.observed.get(id).pid === pid) {
        this.deps.observed.update(id, { cpu_usage: sample.cpu, mem_usage: sample.memory });
      }
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.cancel = this.deps.clock.setTimer(ms, () => void this.tick());
  }

  private async tick(): Promise<void> {
    const { clock, observed, intervalMs } = this.deps;
    if (clock.now() - observed.lastUsageRead < DEMAND_WINDOW_MS) {
      try {
        await this.sampleNow();
      } catch {
        // a vanished /proc entry is not an error worth stopping the sampler for
      }
    }
    this.schedule(intervalMs);
  }
}

import type { Clock } from '../reconciler/clock.js';
import type { ObservedRegistry } from '../state/observed.js';
import type { OsPort, UsageSample } from '../controllers/os/port.js';

/** A pass younger than this answers a read as it is (a burst of reads costs one pass). */
export const USAGE_FRESH_MS = 1000;

/**
 * Samples cpu and memory of every live program in one batch (never per program), and only while
 * someone reads the figures: a read (`refresh`, called by the API before it answers) samples at
 * once unless the last pass is younger than USAGE_FRESH_MS, and keeps a pass every interval going
 * for USAGE_DEMAND_WINDOW_MS after the last read, for views that are pushed changes (watch
 * streams note a read every few seconds). Nobody reading: no timer at all, so an idle daemon
 * does not wake up for this. About 1.5 ms of CPU per pass for 100 programs. Figures are for the
 * main process of each program, or for its whole cgroup (children included) where the
 * isolation plugin enforces limits.
 */
export class UsageSampler {
  private cancel: (() => void) | null = null;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  private lastPassAt = -Infinity;
  private inFlight: Promise<void> | null = null;
  private unsubscribeStarts: (() => void) | null = null;
  /** Programs whose process just started, sampled once at once (not 0 B until a read's pass). */
  private readonly started = new Map<string, number>();
  private cancelStarted: (() => void) | null = null;

  constructor(
    private readonly deps: {
      os: OsPort;
      clock: Clock;
      observed: ObservedRegistry;
      livePids: () => Map<string, number>;
      /** Usage of a program's whole cgroup (isolation plugin), preferred over its main pid's. */
      wholeProgram?: (id: string) => UsageSample | null;
      intervalMs: number;
      /** A failed pass (reported; sampling goes on). */
      onError?: (err: unknown) => void;
    },
  ) {}

  start(): void {
    this.unsubscribe = this.deps.observed.onUsageDemand(() => this.arm(0));
    this.deps.observed.setUsageRefresher(() => this.refresh());
    // A new process shows its memory at once to whoever is looking: one sample of the processes
    // that just started. Nobody looking: they wait for the next read, so a burst of 500 starts
    // nobody watches reads no /proc file.
    this.unsubscribeStarts = this.deps.observed.subscribe((id, now, prev) => {
      if (!now?.pid || now.pid === prev?.pid) return;
      this.started.set(id, now.pid);
      if (this.deps.observed.usageWatched(this.deps.clock.now())) this.cancelStarted ??= this.deps.clock.setTimer(0, () => void this.sampleStarted());
    });
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    this.cancelStarted?.();
    this.cancelStarted = null;
    this.unsubscribe?.();
    this.unsubscribeStarts?.();
    this.deps.observed.setUsageRefresher(null);
  }

  /** One pass over the processes that started since the last one. */
  private async sampleStarted(): Promise<void> {
    this.cancelStarted?.();
    this.cancelStarted = null;
    const batch = new Map(this.started);
    this.started.clear();
    try {
      await this.apply(batch);
    } catch (err) {
      this.deps.onError?.(err);
    }
  }

  /** Figures at most USAGE_FRESH_MS old: resolves after a pass when the last one is older. */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.deps.clock.now() - this.lastPassAt >= USAGE_FRESH_MS) return this.pass();
    return this.started.size > 0 ? this.sampleStarted() : Promise.resolve();
  }

  /** One sampling pass over every live program (a pass already running is shared). */
  sampleNow(): Promise<void> {
    return this.pass();
  }

  private pass(): Promise<void> {
    this.inFlight ??= this.sample()
      .catch((err: unknown) => this.deps.onError?.(err)) // a failed pass is not a reason to stop sampling
      .finally(() => {
        this.lastPassAt = this.deps.clock.now();
        this.inFlight = null;
      });
    return this.inFlight;
  }

  private sample(): Promise<void> {
    this.started.clear(); // sampled with every other live program
    return this.apply(this.deps.livePids());
  }

  private async apply(live: Map<string, number>): Promise<void> {
    if (live.size === 0) return;
    const usage = await this.deps.os.sampleUsage([...live.values()]);
    for (const [id, pid] of live) {
      const sample = this.deps.wholeProgram?.(id) ?? usage.get(pid);
      if (sample && this.deps.observed.get(id).pid === pid) {
        this.deps.observed.update(id, { cpu_usage: sample.cpu, mem_usage: sample.memory });
      }
    }
  }

  /** Starts the periodic passes (if not running) with the first one `ms` from now. */
  private arm(ms: number): void {
    if (this.stopped || this.cancel) return;
    this.cancel = this.deps.clock.setTimer(ms, () => void this.tick());
  }

  private async tick(): Promise<void> {
    this.cancel = null;
    await this.refresh();
    const { clock, observed, intervalMs } = this.deps;
    // Nobody read for a while: stop until the next read (onUsageDemand re-arms).
    if (observed.usageWatched(clock.now())) this.arm(intervalMs);
  }
}

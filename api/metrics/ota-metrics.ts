import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { ObservedRegistry } from '../../state/observed.js';
import type { OtaResult } from '../../state/ota.js';
import type { ProgramStore } from '../../state/store.js';
import type { RegistrySource } from './metrics.js';

/**
 * OTA updates (docs/ota.md), counted from the observed stream: every new `ota.last` counts once
 * by its result (applied, retrying, failed, rolled_back). Results recorded before svcd started
 * (restored from disk) are not counted again.
 */
export class OtaMetrics implements RegistrySource {
  private readonly seen = new Map<string, string>();
  private readonly counts = new Map<string, Map<OtaResult, number>>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: Pick<ProgramStore, 'list' | 'get'>,
    private readonly observed: ObservedRegistry,
    private readonly since = Date.now(),
  ) {
    // Results count from svcd's start, not from the first scrape (when install runs).
    this.unsubscribe = this.observed.subscribe((id, o) => {
      if (!o) {
        this.seen.delete(id);
        this.counts.delete(id);
        return;
      }
      const last = o.ota?.last;
      if (!last || last.at < this.since) return;
      const key = `${last.at}:${last.result}:${last.reason}`;
      if (this.seen.get(id) === key) return;
      this.seen.set(id, key);
      const byResult = this.counts.get(id) ?? new Map<OtaResult, number>();
      byResult.set(last.result, (byResult.get(last.result) ?? 0) + 1);
      this.counts.set(id, byResult);
    });
  }

  install(registry: Registry, prom: PromClient): void {
    const { store, observed, counts } = this;
    new prom.Counter({
      name: 'svc_ota_updates_total',
      help: 'OTA update results since svcd started, by result (applied, retrying, failed, rolled_back)',
      labelNames: ['name', 'id', 'result'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [id, byResult] of counts) {
          const name = store.get(id)?.config.name;
          if (name !== undefined) for (const [result, n] of byResult) this.inc({ name, id, result }, n);
        }
      },
    });
    new prom.Gauge({
      name: 'svc_ota_in_progress',
      help: 'Whether an OTA update of the program is under way (1) or not (0); programs with an artifact only',
      labelNames: ['name', 'id'],
      registers: [registry],
      collect() {
        this.reset();
        for (const r of store.list()) {
          const ota = observed.get(r.id).ota;
          if (ota) this.set({ name: r.config.name, id: r.id }, ota.phase === 'idle' ? 0 : 1);
        }
      },
    });
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}

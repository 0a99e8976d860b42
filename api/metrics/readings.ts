import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { RegistrySource } from './metrics.js';

/** One unlabelled number read at scrape time. */
export interface Reading {
  /** Full metric name; counters must end in `_total`. */
  name: string;
  help: string;
  /** gauge: can go down; counter: only grows while the daemon runs. */
  type: 'gauge' | 'counter';
  read: () => number;
}

/**
 * Numbers owned by someone else (the reconcile queue, the event queue, cgroup enforcement),
 * exposed without copying state: each scrape reads them once. For example the event log's
 * queue: `metrics.add(readings([{ name: 'svc_event_queue_depth', type: 'gauge', help, read: () => events.stats().depth }, ...]))`.
 */
export function readings(list: Reading[]): RegistrySource {
  return {
    install(registry: Registry, prom: PromClient) {
      for (const r of list) {
        if (r.type === 'gauge') {
          new prom.Gauge({ name: r.name, help: r.help, registers: [registry], collect() { this.set(r.read()); } });
        } else {
          new prom.Counter({
            name: r.name,
            help: r.help,
            registers: [registry],
            collect() {
              this.reset();
              this.inc(Math.max(0, r.read()));
            },
          });
        }
      }
    },
  };
}

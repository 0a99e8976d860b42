import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { LoopStats } from '../../reconciler/manager.js';
import type { RegistrySource } from './metrics.js';

const FAMILIES: { name: string; type: 'gauge' | 'counter'; help: string; read: (s: LoopStats) => number }[] = [
  { name: 'svc_reconcile_queue_depth', type: 'gauge', help: 'Keys waiting for a reconcile pass, per controller', read: (s) => s.depth },
  { name: 'svc_reconcile_in_flight', type: 'gauge', help: 'Reconcile passes running now, per controller', read: (s) => s.inFlight },
  { name: 'svc_reconcile_delayed', type: 'gauge', help: 'Keys waiting for their requeue time, per controller', read: (s) => s.delayed },
  { name: 'svc_reconcile_passes_total', type: 'counter', help: 'Reconcile passes since svcd started, per controller', read: (s) => s.passes },
  {
    name: 'svc_reconcile_duration_seconds_total',
    type: 'counter',
    help: 'Time spent in reconcile passes, in seconds, per controller (divide by passes for the mean latency)',
    read: (s) => s.passMs / 1000,
  },
  { name: 'svc_reconcile_errors_total', type: 'counter', help: 'Reconcile passes that failed (retried with backoff), per controller', read: (s) => s.errors },
];

/** Every controller loop's figures (ControllerManager.stats), labelled `controller`. */
export function loopMetrics(stats: () => LoopStats[]): RegistrySource {
  return {
    install(registry: Registry, prom: PromClient) {
      for (const f of FAMILIES) {
        const common = { name: f.name, help: f.help, labelNames: ['controller'] as const, registers: [registry] };
        if (f.type === 'gauge') {
          new prom.Gauge({ ...common, collect() { for (const s of stats()) this.labels(s.controller).set(f.read(s)); } });
        } else {
          new prom.Counter({
            ...common,
            collect() {
              this.reset();
              for (const s of stats()) this.labels(s.controller).inc(Math.max(0, f.read(s)));
            },
          });
        }
      }
    },
  };
}

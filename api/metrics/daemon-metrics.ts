import type { ObservedRegistry } from '../../state/observed.js';
import type { ProgramStore } from '../../state/store.js';
import { HttpMetrics } from './http-metrics.js';
import { OtaMetrics } from './ota-metrics.js';
import { SvcMetrics } from './metrics.js';
import { ProgramMetrics } from './program-metrics.js';
import { loopMetrics } from './loop-metrics.js';
import { readings } from './readings.js';
import type { LoopStats } from '../../reconciler/manager.js';

export interface DaemonMetrics {
  metrics: SvcMetrics;
  http: HttpMetrics;
  close(): void;
}

/**
 * The metric families every svcd exports. Later sources (health probes, cron runs, the event
 * queue) are added by the composition root with `metrics.add(...)`.
 */
export function createDaemonMetrics(deps: {
  store: ProgramStore;
  observed: ObservedRegistry;
  clock: { now(): number };
  loops: () => LoopStats[];
  /** Programs with active cgroup enforcement (isolation plugin); 0 without it. */
  cgroupEnforced?: () => number;
  /** The event history writer's queue and counters. */
  eventWriter?: () => { queued: number; written: number; dropped: number; failed: number };
}): DaemonMetrics {
  const metrics = new SvcMetrics();
  const http = new HttpMetrics();
  const programs = new ProgramMetrics(deps.store, deps.observed, () => deps.observed.noteUsageRead(deps.clock.now()));
  const ota = new OtaMetrics(deps.store, deps.observed);
  metrics.add(programs).add(http).add(loopMetrics(deps.loops)).add(ota);
  metrics.onScrape(() => deps.observed.readUsage(deps.clock.now()));
  metrics.add(
    readings([
      // The spec names this one; it is a current count that can go down, so dashboards should
      // use the gauge below (docs/observability.md).
      {
        name: 'svc_cgroup_enforced_total',
        type: 'counter',
        help: 'Programs with active cgroup enforcement (0 when isolation is not in use); named by the spec, a current count: prefer svc_cgroup_enforced_programs',
        read: () => deps.cgroupEnforced?.() ?? 0,
      },
      { name: 'svc_cgroup_enforced_programs', type: 'gauge', help: 'Programs with active cgroup enforcement now (0 when isolation is not in use)', read: () => deps.cgroupEnforced?.() ?? 0 },
    ]),
  );
  const writer = deps.eventWriter;
  if (writer) {
    metrics.add(
      readings([
        { name: 'svc_events_queue_depth', type: 'gauge', help: 'Event records waiting for the history writer', read: () => writer().queued },
        { name: 'svc_events_written_total', type: 'counter', help: 'Event records written to the history', read: () => writer().written },
        { name: 'svc_events_dropped_total', type: 'counter', help: 'Event records dropped because the queue was full', read: () => writer().dropped },
        { name: 'svc_events_failed_total', type: 'counter', help: 'Event records lost to a failed write', read: () => writer().failed },
      ]),
    );
  }
  const close = () => {
    programs.close();
    ota.close();
  };
  return { metrics, http, close };
}

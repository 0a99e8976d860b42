import type { ObservedProgram } from '../state/observed.js';
import { runIntent, type BootContext } from '../state/boot.js';
import { describeIsolation } from '../state/isolation.js';
import type { ProgramRecord } from '../state/program.js';
import type { Departing } from '../state/departing.js';
import type { ProgramDetail, ProgramSummary, WatchProgram } from './wire.js';

/** The list item (spec: Program summary), plus restart count and start time for the CLI/TUI. */
export function programSummary(record: ProgramRecord, o: ObservedProgram): ProgramSummary {
  return {
    id: record.id,
    name: record.config.name,
    // svc addition: the group batch actions and `svc list GROUP:*` select by.
    group_name: record.config.group_name ?? null,
    status: o.status,
    pid: o.pid,
    cpu_usage: o.cpu_usage,
    mem_usage: o.mem_usage,
    restarts: o.restarts,
    started_at: o.started_at,
    // Cron programs only (docs/cron.md): when the schedule fires next, and runs in flight.
    ...(o.cron ? { next_fire_at: o.cron.next_fire_at, cron_running: o.cron.running } : {}),
  };
}

/** Full configuration (as stored, including `source`) and observed state of one program. */
export function programDetail(record: ProgramRecord, o: ObservedProgram, now: number, boot: BootContext): ProgramDetail {
  return {
    ...programSummary(record, o),
    config: record.config,
    state: {
      status: o.status,
      desired: runIntent(record, boot),
      pid: o.pid,
      started_at: o.started_at,
      uptime_secs: o.started_at ? Math.max(0, Math.floor((now - o.started_at) / 1000)) : null,
      retries: o.retries,
      restarts: o.restarts,
      next_retry_at: o.next_retry_at,
      last_exit: o.last_exit,
      detail: o.detail,
      health: o.health,
      // A reload under way: the second process (docs/reload.md); and how the last reload ended.
      reload: o.reload ?? null,
      last_reload: o.last_reload ?? null,
      cpu_usage: o.cpu_usage,
      mem_usage: o.mem_usage,
      ...(o.cron ? { cron: o.cron } : {}),
      // Programs with an artifact (docs/ota.md): phase, checksums, last result.
      ...(o.ota ? { ota: o.ota } : {}),
      // Programs with resource_limits (docs/isolation.md): enforced, or why not.
      ...(o.isolation ? { isolation: { ...o.isolation, status: describeIsolation(o.isolation) } } : {}),
    },
    revision: record.revision,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** A program as the watch stream sends it: the summary, the health verdict and the source. */
export function watchProgram(record: ProgramRecord, o: ObservedProgram): WatchProgram {
  return {
    ...programSummary(record, o),
    health: o.health ? { healthy: o.health.healthy, failures: o.health.failures } : null,
    source: record.config.source ?? null,
  };
}

/**
 * A removed program whose process is still stopping (state/departing.ts): its last record, shown
 * as Stopping and marked `removed`, until the process has ended.
 */
function departingObserved(d: Departing, o: ObservedProgram): ObservedProgram {
  return { ...o, status: 'Stopping', pid: d.pid, detail: `removed; its process (pid ${d.pid}) is stopping: svc rm --force (DELETE with force=true) ends it now` };
}

export function departingSummary(d: Departing, o: ObservedProgram): ProgramSummary {
  return { ...programSummary(d.record, departingObserved(d, o)), removed: true };
}

export function departingWatch(d: Departing, o: ObservedProgram): WatchProgram {
  return { ...watchProgram(d.record, departingObserved(d, o)), removed: true };
}

export function departingDetail(d: Departing, o: ObservedProgram, now: number, boot: BootContext): ProgramDetail {
  const detail = programDetail(d.record, departingObserved(d, o), now, boot);
  return { ...detail, removed: true, state: { ...detail.state, desired: 'stopped' } };
}

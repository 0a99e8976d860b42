import { tailLines } from '../log-files/tail.js';
import { logPaths } from '../log-files/paths.js';
import { runIntent, type BootContext } from '../state/boot.js';
import type { ObservedProgram } from '../state/observed.js';
import type { ProgramRecord } from '../state/program.js';
import { READY_POLL_MS, STDERR_LINES, stderrLine, type PollTime, type ReadinessSource } from '../state/readiness.js';
import type { ApiDeps } from './deps.js';
import { maskSecrets, secretValues } from './redact.js';
import { departingDetail, departingSummary, programDetail, programSummary } from './views.js';

type Deps = Pick<ApiDeps, 'store' | 'observed' | 'departing' | 'clock' | 'boot' | 'config'>;

/**
 * svcd's own state as the source of `PUT /api/v1/stack?wait=` (state/readiness.ts): the same
 * views the API answers with, so the wait judges what `svc wait` would see, plus what only svcd
 * knows: a program the apply restarted whose controller has not taken the restart up yet is
 * `request_pending` (its status is the old process's). `masked`: the caller does not see
 * secrets, and stderr lines are masked as `GET /logs` masks them.
 */
export function stateReadinessSource(deps: Deps, masked: boolean): ReadinessSource {
  const { store, observed, departing, clock, boot, config } = deps;
  return {
    list: () =>
      Promise.resolve([
        ...store.list().map((r) => {
          const o = observed.get(r.id);
          return pendingOf(r, o, boot, programSummary(r, o));
        }),
        ...(departing?.list() ?? []).map((d) => departingSummary(d, observed.get(d.record.id))),
      ]),
    detail: (id) => {
      const record = store.get(id);
      if (record) {
        const o = observed.get(id);
        return Promise.resolve(pendingOf(record, o, boot, programDetail(record, o, clock.now(), boot)));
      }
      const gone = departing?.get(id);
      return Promise.resolve(gone ? departingDetail(gone, observed.get(id), clock.now(), boot) : null);
    },
    stderrTail: async (id) => {
      const record = store.get(id) ?? departing?.get(id)?.record;
      if (!record) return [];
      const lines = await tailLines(logPaths(record.id, record.config, config.storage.log_dir).stderr, STDERR_LINES).catch(() => []);
      const secrets = masked ? secretValues(record.config) : [];
      return lines.map((l) => stderrLine(secrets.length > 0 ? maskSecrets(l, secrets) : l));
    },
  };
}

/** The view, marked `request_pending` while a start or restart asked of a program meant to run is not taken up by its controller. */
function pendingOf<T extends object>(record: ProgramRecord, o: ObservedProgram, boot: BootContext, view: T): T & { request_pending?: true } {
  return runIntent(record, boot) === 'running' && (o.applied_start_seq < record.intent.start_seq || o.applied_restart_seq < record.intent.restart_seq) ? { ...view, request_pending: true } : view;
}

/** The wait's polls on svcd's clock; a pause after the client has gone ends the wait (nobody reads its answer). */
export function requestPollTime(deps: Pick<ApiDeps, 'clock'>, gone: () => boolean): PollTime {
  return {
    now: () => deps.clock.now(),
    pause: () =>
      new Promise((resolve, reject) => {
        if (gone()) return reject(new Error('the client closed the connection'));
        deps.clock.setTimer(READY_POLL_MS, () => resolve());
      }),
  };
}

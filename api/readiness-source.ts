import { tailLines } from '../log-files/tail.js';
import { logPaths } from '../log-files/paths.js';
import { READY_POLL_MS, STDERR_LINES, stderrLine, type PollTime, type ReadinessSource } from '../state/readiness.js';
import type { ApiDeps } from './deps.js';
import { maskSecrets, secretValues } from './redact.js';
import { departingDetail, departingSummary, programDetail, programSummary } from './views.js';

type Deps = Pick<ApiDeps, 'store' | 'observed' | 'departing' | 'clock' | 'boot' | 'config'>;

/**
 * svcd's own state as the source of `PUT /api/v1/stack?wait=` (operations/readiness.ts): the
 * same views the API answers with, so the wait judges what `svc wait` would see. `masked`: the
 * caller does not see secrets, and stderr lines are masked as `GET /logs` masks them.
 */
export function stateReadinessSource(deps: Deps, masked: boolean): ReadinessSource {
  const { store, observed, departing, clock, boot, config } = deps;
  return {
    list: () => Promise.resolve([...store.list().map((r) => programSummary(r, observed.get(r.id))), ...(departing?.list() ?? []).map((d) => departingSummary(d, observed.get(d.record.id)))]),
    detail: (id) => {
      const record = store.get(id);
      if (record) return Promise.resolve(programDetail(record, observed.get(id), clock.now(), boot));
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

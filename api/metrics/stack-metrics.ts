import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { GitSourceStatus } from '../../stacks/git/status.js';
import type { StackDirStatus } from '../../stacks/status.js';
import type { RegistrySource } from './metrics.js';

/**
 * Stack sources, read at scrape time (docs/observability.md): each watched file's error state,
 * and per git source the age of the commit in force, its error state and its failed syncs.
 */
export function stackMetrics(deps: { files: () => StackDirStatus; git: () => GitSourceStatus[]; now: () => number }): RegistrySource {
  return {
    install(registry: Registry, prom: PromClient) {
      new prom.Gauge({
        name: 'svc_stack_file_error',
        help: 'Whether the last apply of a watched stack file was refused (1) or not (0); the last good state keeps running',
        labelNames: ['file'],
        registers: [registry],
        collect() {
          this.reset();
          for (const f of deps.files().files) this.set({ file: f.file }, f.state === 'error' ? 1 : 0);
        },
      });
      new prom.Gauge({
        name: 'svc_gitops_applied_commit_age_seconds',
        help: 'Seconds since the committer time of the commit a git source has applied (sources with an applied commit only)',
        labelNames: ['source'],
        registers: [registry],
        collect() {
          this.reset();
          for (const s of deps.git()) if (s.applied) this.set({ source: s.name }, Math.max(0, (deps.now() - s.applied.time) / 1000));
        },
      });
      new prom.Gauge({
        name: 'svc_gitops_source_error',
        help: 'Whether the last sync of a git source failed (1: fetch, signature or a refused commit) or not (0)',
        labelNames: ['source'],
        registers: [registry],
        collect() {
          this.reset();
          for (const s of deps.git()) this.set({ source: s.name }, s.last_error ? 1 : 0);
        },
      });
      new prom.Counter({
        name: 'svc_gitops_sync_failures_total',
        help: 'Failed syncs of a git source since svcd started (fetch failed, bad signature, refused commit)',
        labelNames: ['source'],
        registers: [registry],
        collect() {
          this.reset();
          for (const s of deps.git()) this.inc({ source: s.name }, s.failures);
        },
      });
    },
  };
}

import type { Registry } from 'prom-client';
import type { PromClient } from './prom.js';
import type { RegistrySource } from './metrics.js';

/** One reaction's figures since svcd started (controllers/reactions Reactor.stats). */
export interface ReactionStats {
  name: string;
  running: number;
  runs: Record<string, number>;
  skipped: Record<string, number>;
}

/**
 * Event reactions in /metrics (docs/observability.md): runs by outcome, skipped matches by
 * reason, runs in flight, and whether the last edit of conf/reactions.toml failed to load.
 */
export function reactionMetrics(read: () => { stats: ReactionStats[]; loadFailed: boolean }): RegistrySource {
  return {
    install(registry: Registry, prom: PromClient) {
      new prom.Counter({
        name: 'svc_reaction_runs_total',
        help: 'Reaction runs that ended, by reaction and outcome (ok, failed, timeout, spawn_failed)',
        labelNames: ['reaction', 'outcome'],
        registers: [registry],
        collect() {
          this.reset();
          for (const s of read().stats) for (const [outcome, n] of Object.entries(s.runs)) this.inc({ reaction: s.name, outcome }, n);
        },
      });
      new prom.Counter({
        name: 'svc_reaction_skipped_total',
        help: 'Matching events that started no run, by reaction and reason (disabled, cooldown, concurrency)',
        labelNames: ['reaction', 'reason'],
        registers: [registry],
        collect() {
          this.reset();
          for (const s of read().stats) for (const [reason, n] of Object.entries(s.skipped)) this.inc({ reaction: s.name, reason }, n);
        },
      });
      new prom.Gauge({
        name: 'svc_reaction_running',
        help: 'Reaction runs in flight, by reaction',
        labelNames: ['reaction'],
        registers: [registry],
        collect() {
          this.reset();
          for (const s of read().stats) this.set({ reaction: s.name }, s.running);
        },
      });
      new prom.Gauge({
        name: 'svc_reactions_load_error',
        help: '1 when the last edit of conf/reactions.toml failed to load (the previous reactions stay in force)',
        registers: [registry],
        collect() {
          this.set(read().loadFailed ? 1 : 0);
        },
      });
    },
  };
}

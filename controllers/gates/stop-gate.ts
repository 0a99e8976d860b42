import type { ObservedRegistry } from '../../state/observed.js';
import type { ProgramRecord } from '../../state/program.js';
import { ALIVE } from '../../state/status.js';
import type { ProgramStore } from '../../state/store.js';
import { stopLevels } from '../../state/stop-order.js';

/**
 * Stop order as a gate, read by planners (level-triggered): among the programs that are going
 * down (their intent is stopped, or the daemon is shutting down), a program stops only once
 * every program ranked before it has no live process: its dependants first, then higher
 * `priority` first (controllers/gates/stop-order.ts). A stop request writes one intent for all
 * its targets and the daemon converges, even across a crash half-way.
 *
 * The ranking depends on desired state only, so it is computed once per store change (or when
 * shutdown begins), not per pass; liveness is read from the observed state at each check.
 */
export class StopGate {
  private order: Map<string, { level: number; levels: string[][] }> | null = null;

  constructor(
    private readonly store: Pick<ProgramStore, 'list' | 'onChange'>,
    private readonly observed: Pick<ObservedRegistry, 'get' | 'shuttingDown' | 'onShutdown'>,
    private readonly goingDown: (record: ProgramRecord) => boolean,
  ) {
    store.onChange(() => (this.order = null));
    observed.onShutdown(() => (this.order = null));
  }

  /** Null when the program may stop now; otherwise what it waits for (shown as its detail). */
  blocker(id: string): string | null {
    this.order ??= this.rank();
    const place = this.order.get(id);
    if (!place) return null;
    const waiting: string[] = [];
    for (let level = 0; level < place.level && waiting.length < 3; level++) {
      for (const other of place.levels[level]) if (ALIVE.has(this.observed.get(other).status)) waiting.push(other);
    }
    if (waiting.length === 0) return null;
    const names = waiting.slice(0, 3).map((other) => this.store.list().find((r) => r.id === other)?.config.name ?? other);
    return `stops after ${names.join(', ')}`;
  }

  private rank(): Map<string, { level: number; levels: string[][] }> {
    const down = this.store.list().filter((r) => this.observed.shuttingDown || this.goingDown(r));
    const levels = stopLevels(down).map((level) => level.map((r) => r.id));
    const order = new Map<string, { level: number; levels: string[][] }>();
    levels.forEach((ids, level) => ids.forEach((id) => order.set(id, { level, levels })));
    return order;
  }
}

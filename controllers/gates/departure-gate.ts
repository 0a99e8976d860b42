/**
 * Replacement order as a gate: in one write that removes programs whose processes run and creates
 * others (a stack apply with prune, a git sync), the created programs start only once the removed
 * ones' processes have ended. So renaming a service in a stack file stops the old program before
 * the new one starts, as a restart does: the two never hold the same port, socket or files at
 * once. Separate writes (`svc rm` then `svc add`) are not tied together.
 *
 * Held in memory: such a write is rare and the wait is at most the removed programs' stopsecs.
 */
export class DepartureGate {
  /** Removed programs whose process has not ended yet, by id, with their last name. */
  private readonly departing = new Map<string, string>();
  /** Created programs, each with the removals of its write it waits for. */
  private readonly holds = new Map<string, Set<string>>();

  constructor(private readonly wake: (id: string) => void) {}

  /** One write removed `removed` (processes alive, with their names) and created `created`. */
  replaced(removed: ReadonlyMap<string, string>, created: readonly string[]): void {
    if (removed.size === 0 || created.length === 0) return;
    for (const [id, name] of removed) this.departing.set(id, name);
    for (const id of created) this.holds.set(id, new Set(removed.keys()));
  }

  /** `id` has no process any more: the programs created in its write are looked at again. */
  gone(id: string): void {
    if (!this.departing.delete(id)) return;
    for (const [waiting, on] of this.holds) if (on.has(id)) this.wake(waiting);
  }

  /** Null when the program may start now; otherwise what it waits for (its status detail). */
  blocker(id: string): string | null {
    if (this.holds.size === 0) return null;
    const on = this.holds.get(id);
    if (!on) return null;
    const names: string[] = [];
    for (const other of on) {
      const name = this.departing.get(other);
      if (name === undefined) on.delete(other);
      else names.push(name);
    }
    if (names.length === 0) {
      this.holds.delete(id);
      return null;
    }
    const shown = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
    return `waiting for ${shown} (removed in the same change) to stop`;
  }

  /** The program itself was removed: it waits for nothing. */
  forget(id: string): void {
    this.holds.delete(id);
    this.gone(id);
  }
}

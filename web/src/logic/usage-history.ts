/** CPU and memory of every program over the last minutes, from the list refreshes. */
export interface UsagePoint {
  /** Unix ms of the sample. */
  at: number;
  cpu: number;
  mem: number;
}

/**
 * A bounded series per program id: `record` appends one point per program per refresh (older
 * points fall off past `keepMs`), ids no longer listed are forgotten. Pure data, no timers.
 */
export class UsageHistory {
  private readonly series = new Map<string, UsagePoint[]>();

  constructor(readonly keepMs = 5 * 60_000) {}

  record(rows: readonly { id: string; cpu_usage: number; mem_usage: number }[], at: number): void {
    const seen = new Set<string>();
    for (const r of rows) {
      seen.add(r.id);
      let points = this.series.get(r.id);
      if (!points) this.series.set(r.id, (points = []));
      const last = points[points.length - 1];
      if (last && last.at >= at) continue; // the same refresh twice
      points.push({ at, cpu: r.cpu_usage, mem: r.mem_usage });
      let drop = 0;
      while (drop < points.length && (points[drop]).at < at - this.keepMs) drop++;
      if (drop) points.splice(0, drop);
    }
    for (const id of this.series.keys()) if (!seen.has(id)) this.series.delete(id);
  }

  get(id: string): readonly UsagePoint[] {
    return this.series.get(id) ?? [];
  }
}

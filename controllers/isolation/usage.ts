/** One reading of a cgroup's usage files. */
export interface CgroupReading {
  /** Unix ms of the reading. */
  at: number;
  /** cpu.stat usage_usec: CPU time of every process that was ever in the cgroup. */
  cpuUsec: number;
  /** memory.current: bytes charged to the cgroup (all its processes, page cache included). */
  memory: number;
}

/** Parses cpu.stat and memory.current; null when either is unreadable. */
export function parseReading(at: number, cpuStat: string | null, memoryCurrent: string | null): CgroupReading | null {
  const usec = cpuStat ? /^usage_usec (\d+)$/m.exec(cpuStat)?.[1] : undefined;
  const memory = memoryCurrent?.trim();
  if (usec === undefined || !memory || !/^\d+$/.test(memory)) return null;
  return { at, cpuUsec: Number(usec), memory: Number(memory) };
}

/** Percent of one core between two readings (0 for the first), one decimal. */
export function cpuPercent(previous: CgroupReading | null, current: CgroupReading): number {
  if (!previous || current.at <= previous.at || current.cpuUsec < previous.cpuUsec) return 0;
  const pct = ((current.cpuUsec - previous.cpuUsec) / 1000 / (current.at - previous.at)) * 100;
  return Math.round(pct * 10) / 10;
}

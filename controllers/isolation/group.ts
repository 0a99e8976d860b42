import type { Limits } from './limits.js';
import type { MemoryCounters } from './memory-events.js';
import type { CgroupReading } from './usage.js';

/** One program's cgroup as this daemon knows it (in memory; rebuilt from the tree at start-up). */
export interface Group {
  dir: string;
  /** The limits last written to its files; null = not known (adopted): the next pass writes both. */
  applied: Limits | null;
  /** Pids this daemon started into it and that have not exited. */
  members: Set<number>;
  /** Spawns decorated with it that have not settled yet (the directory must stay). */
  spawning: number;
  /** Found at start-up: its processes were re-adopted, so the observed pid says whether it lives. */
  adopted: boolean;
  /** The last memory.events reading. */
  counters: MemoryCounters;
  /** oom_kill count already accounted for: named in an exit message, or kills the group's processes outlived. */
  notedOomKills: number;
  /** Clock ms of the reading where oom_kill last went up. */
  oomRiseAt: number;
  /** Pressure counts not reported yet (memory_pressure is recorded at most once a minute). */
  pendingPressure: { high: number; max: number };
  lastPressureAt: number;
  reading: CgroupReading | null;
  usage: { cpu: number; memory: number } | null;
  /** Failed rmdir passes in a row (processes still leaving). */
  removeTries: number;
}

export function newGroup(dir: string, counters: MemoryCounters, adopted: boolean): Group {
  return {
    dir,
    applied: null,
    members: new Set(),
    spawning: 0,
    adopted,
    counters,
    notedOomKills: counters.oom_kill,
    oomRiseAt: Number.NEGATIVE_INFINITY,
    pendingPressure: { high: 0, max: 0 },
    lastPressureAt: Number.NEGATIVE_INFINITY,
    reading: null,
    usage: null,
    removeTries: 0,
  };
}
